"""A blind evaluation server (round 16): the vendor-contracts desk of a
mid-size company's legal operations team. Deterministic, in-memory state:
contracts are looked up, renewals and amendments requested, contracts sent
for signature and terminated."""

from datetime import date
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-contracts")

TODAY = date(2026, 12, 1)

ContractId = Annotated[
    str,
    Field(pattern=r"^VC-[0-9]{4}$", description="Contract id, e.g. VC-2041"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date as YYYY-MM-DD"),
]
Status = Literal["draft", "pending_signature", "active", "terminated"]
AmendmentType = Literal["pricing", "scope", "payment_terms", "assignment", "notice_details"]
Signer = Literal["ceo", "cfo", "general_counsel", "vp_operations"]
Reason = Literal["convenience", "breach", "non_renewal"]

SIGNERS = {
    "ceo": "Rachel Okafor (CEO)",
    "cfo": "Priya Raman (CFO)",
    "general_counsel": "Dana Whitfield (General Counsel)",
    "vp_operations": "Marcus Ortiz (VP Operations)",
}


def _contract(cid, vendor, service, status, annual_value, start, renewal_date, owner, requests=None):
    return {
        "contract_id": cid,
        "vendor": vendor,
        "service": service,
        "status": status,
        "annual_value": annual_value,
        "currency": "USD",
        "start_date": start,
        "renewal_date": renewal_date,
        "business_owner": owner,
        "requests": list(requests or []),
    }


CONTRACTS = {
    c["contract_id"]: c
    for c in [
        _contract("VC-1987", "Cedar Print & Mail", "printing and mailroom", "terminated", 11200, "2022-07-01", None, "Facilities"),
        _contract("VC-2041", "Northwind Cloud Hosting", "cloud hosting", "active", 84000, "2024-02-01", "2027-01-31", "IT"),
        _contract("VC-2107", "Brightline Staffing", "contract recruiting", "active", 212000, "2025-03-01", "2027-02-28", "People"),
        _contract("VC-2188", "Kessler Facilities Services", "office cleaning", "active", 36500, "2024-01-01", "2026-12-31", "Facilities"),
        _contract("VC-2230", "Orbit Payroll", "payroll processing", "pending_signature", 58200, None, None, "Finance"),
        _contract("VC-2255", "Vantage Courier", "courier and same-day delivery", "active", 19800, "2023-06-01", "2027-05-31", "Operations"),
        _contract("VC-2274", "Greenleaf Grounds", "landscaping", "active", 22000, "2025-01-16", "2027-01-15", "Facilities"),
        _contract("VC-2302", "Halcyon Security", "building security guards", "active", 140000, "2024-07-01", "2027-06-30", "Facilities"),
        _contract("VC-2315", "Lumen Legal Research", "legal research database", "active", 27400, "2025-03-16", "2027-03-15", "Legal"),
        _contract(
            "VC-2320", "Tidewater Telecom", "phone lines and internet", "active", 64000, "2025-10-01", "2027-09-30", "IT",
            requests=[{"request_id": "REQ-5107", "kind": "amendment", "amendment_type": "pricing",
                       "effective_date": "2027-01-01", "status": "with_vendor", "submitted": "2026-11-23"}],
        ),
        _contract("VC-2350", "Pinecrest Office Supply", "office supplies", "active", 12600, "2025-05-01", "2027-04-30", "Facilities"),
        _contract("VC-2361", "Quarry Analytics", "sales analytics platform", "draft", 45000, None, None, "Sales"),
        _contract("VC-2399", "Bluebird Catering", "office catering", "active", 15000, "2025-09-01", "2027-08-31", "People"),
        _contract("VC-2410", "Sterling Data Shred", "document shredding", "active", 9600, "2025-11-01", "2027-10-31", "Legal"),
        _contract("VC-2433", "Redwood Fleet Leasing", "vehicle fleet leasing", "active", 310000, "2024-04-01", "2027-03-31", "Operations"),
        _contract("VC-2447", "Summit Pest Control", "pest control", "active", 7200, "2025-02-01", "2027-01-31", "Facilities"),
        _contract("VC-2458", "Harbor Water Delivery", "bottled water delivery", "active", 4800, "2025-06-01", "2027-05-31", "Facilities"),
        _contract("VC-2466", "Apex Elevator Maintenance", "elevator maintenance", "active", 18400, "2024-12-15", "2026-12-14", "Facilities"),
    ]
}

_next_request = [5200]


def _get(contract_id: str) -> dict:
    contract = CONTRACTS.get(contract_id.upper())
    if contract is None:
        raise ToolError(f"No contract {contract_id}: check the id (contracts look like VC-2041)")
    return contract


def _live(contract_id: str) -> dict:
    contract = _get(contract_id)
    if contract["status"] == "terminated":
        raise ToolError(f"{contract['contract_id']} ({contract['vendor']}) is terminated; nothing more can be done on it")
    return contract


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date (YYYY-MM-DD)") from None


def _record(contract: dict, request: dict) -> dict:
    _next_request[0] += 1
    request = {"request_id": f"REQ-{_next_request[0]}", "submitted": TODAY.isoformat(), **request}
    contract["requests"].append(request)
    return request


def _summary(c: dict) -> dict:
    return {k: c[k] for k in ("contract_id", "vendor", "service", "status", "annual_value", "renewal_date")}


@server.tool(
    description="Search vendor contracts by vendor name (any part of it), by status, or by how soon they come up for renewal. All filters are optional and combine.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_contracts(
    vendor: Annotated[str | None, Field(description="Part of the vendor's name, e.g. Northwind")] = None,
    status: Annotated[Status | None, Field(description="Contract status")] = None,
    renewing_within_days: Annotated[int | None, Field(ge=1, le=730, description="Only contracts whose renewal date falls within this many days from today")] = None,
) -> dict:
    found = []
    for c in CONTRACTS.values():
        if vendor and vendor.lower() not in c["vendor"].lower():
            continue
        if status and c["status"] != status:
            continue
        if renewing_within_days is not None:
            if c["status"] != "active" or not c["renewal_date"]:
                continue
            if (date.fromisoformat(c["renewal_date"]) - TODAY).days > renewing_within_days:
                continue
        found.append(_summary(c))
    return {"contracts": found, "count": len(found)}


@server.tool(
    description="Full details of one contract: vendor, status, value, renewal date, owner, and every renewal, amendment, signature or termination request made on it.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_contract(contract_id: ContractId) -> dict:
    return dict(_get(contract_id))


@server.tool(
    description="Submit a renewal request for a contract: the new term in months and the agreed annual value in USD.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def request_renewal(
    contract_id: ContractId,
    term_months: Annotated[int, Field(ge=1, le=60, description="Length of the renewal term in months")],
    annual_value: Annotated[float, Field(gt=0, description="Agreed annual value in USD")],
) -> dict:
    contract = _live(contract_id)
    request = _record(contract, {
        "kind": "renewal", "term_months": term_months, "annual_value": annual_value, "status": "submitted",
    })
    return {"contract_id": contract["contract_id"], "vendor": contract["vendor"], **request}


@server.tool(
    description="Open an amendment request on a contract: what kind of change and the date it takes effect.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def request_amendment(
    contract_id: ContractId,
    amendment_type: Annotated[AmendmentType, Field(description="pricing, scope, payment_terms, assignment (to a new legal entity) or notice_details (addresses and contacts)")],
    effective_date: IsoDate,
) -> dict:
    contract = _live(contract_id)
    _date(effective_date, "effective_date")
    request = _record(contract, {
        "kind": "amendment", "amendment_type": amendment_type, "effective_date": effective_date, "status": "submitted",
    })
    return {"contract_id": contract["contract_id"], "vendor": contract["vendor"], **request}


@server.tool(
    description="Send a contract out for e-signature to one of the company's authorized signers: ceo (Rachel Okafor), cfo (Priya Raman), general_counsel (Dana Whitfield), vp_operations (Marcus Ortiz).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def send_for_signature(
    contract_id: ContractId,
    signer: Annotated[Signer, Field(description="Authorized signer")],
) -> dict:
    contract = _live(contract_id)
    if contract["status"] == "draft":
        contract["status"] = "pending_signature"
    request = _record(contract, {
        "kind": "signature", "signer": signer, "signer_name": SIGNERS[signer], "status": "sent",
    })
    return {"contract_id": contract["contract_id"], "vendor": contract["vendor"], **request}


@server.tool(
    description="Terminate a contract: sends the termination notice to the vendor with the effective date and the reason.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def terminate_contract(
    contract_id: ContractId,
    effective_date: IsoDate,
    reason: Annotated[Reason, Field(description="convenience (no fault), breach (vendor failed its obligations) or non_renewal (let it end at the end of its term)")],
) -> dict:
    contract = _live(contract_id)
    if _date(effective_date, "effective_date") < TODAY:
        raise ToolError(f"effective_date {effective_date} is in the past")
    contract["status"] = "terminated"
    request = _record(contract, {
        "kind": "termination", "effective_date": effective_date, "reason": reason, "status": "notice_sent",
    })
    return {"contract_id": contract["contract_id"], "vendor": contract["vendor"], **request}


@server.tool(
    description="Permanently delete a contract record and its history.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def purge_contract(contract_id: ContractId) -> dict:
    contract = _get(contract_id)
    del CONTRACTS[contract["contract_id"]]
    return {"contract_id": contract["contract_id"], "purged": True}


if __name__ == "__main__":
    run(server)
