"""MCP server of the bank's IT access desk (skill `access-desk`).

Employees ask for access to systems and shared drives, order laptops and
phones and get their MFA reset; managers have leavers' access removed. State
is in memory and deterministic: a handful of staff and requests are seeded,
new requests are numbered from AXS-30422 on.
"""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-itaccess")

StaffId = Annotated[
    str,
    Field(pattern=r"^STF-[0-9]{4}$", description="Staff number, e.g. STF-1234"),
]
RequestId = Annotated[
    str,
    Field(pattern=r"^AXS-[0-9]{5}$", description="Desk request number, e.g. AXS-30412"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD"),
]

System = Literal[
    "core_banking",
    "swift_alliance",
    "bloomberg",
    "murex",
    "salesforce",
    "fenergo",
    "drive_finance",
    "drive_treasury_ops",
    "drive_risk_reporting",
    "drive_compliance",
]
AccessLevel = Literal["read_only", "read_write", "admin"]
Device = Literal["standard_laptop", "developer_laptop", "iphone", "android_phone"]
Site = Literal["CWF", "BSG", "EDI", "MAN", "BHM"]
MfaMethod = Literal["authenticator_app", "sms", "hardware_token"]

SITES = {
    "CWF": "London, Canary Wharf (head office)",
    "BSG": "London, Bishopsgate",
    "EDI": "Edinburgh, Lothian Road",
    "MAN": "Manchester, Spinningfields",
    "BHM": "Birmingham, Brindleyplace",
}

EMPLOYEES: dict[str, dict] = {
    "STF-4821": {"name": "Priya Nair", "department": "Treasury Operations"},
    "STF-2290": {"name": "Tom Whitfield", "department": "Retail Credit Risk"},
    "STF-3307": {"name": "Daniel Okafor", "department": "Data Engineering"},
    "STF-1154": {"name": "Hannah Brooks", "department": "Compliance"},
    "STF-5068": {"name": "Marcus Lee", "department": "Finance"},
    "STF-6412": {"name": "Sofia Romero", "department": "Trade Finance"},
    "STF-7015": {"name": "Oliver Grant", "department": "Markets Quantitative Analytics"},
    "STF-3842": {"name": "Grace Adeyemi", "department": "Human Resources"},
    "STF-6659": {"name": "Ravi Shah", "department": "Finance"},
    "STF-3926": {"name": "Aisha Khan", "department": "Client Onboarding"},
    "STF-4470": {"name": "Ben Carter", "department": "Markets Sales"},
    "STF-5531": {"name": "Chloe Martin", "department": "Retail Banking"},
    "STF-2718": {"name": "Liam Doyle", "department": "Payments Operations"},
    "STF-6093": {"name": "Nina Kowalski", "department": "Operations"},
    "STF-1876": {"name": "Jack Reynolds", "department": "Retail Banking"},
    "STF-5240": {"name": "Chloe Martins", "department": "Internal Audit"},
}

REQUESTS: dict[str, dict] = {
    "AXS-30398": {
        "type": "access", "employee_id": "STF-3307", "system": "drive_finance",
        "access_level": "read_only", "status": "completed", "raised_on": "2026-11-09",
    },
    "AXS-30409": {
        "type": "device", "employee_id": "STF-3307", "device": "iphone", "quantity": 2,
        "site": "EDI", "status": "delivered", "raised_on": "2026-11-12",
    },
    "AXS-30412": {
        "type": "access", "employee_id": "STF-4821", "system": "bloomberg",
        "access_level": "read_only", "status": "awaiting system owner approval",
        "raised_on": "2026-11-24",
    },
    "AXS-30415": {
        "type": "device", "employee_id": "STF-1154", "device": "standard_laptop", "quantity": 1,
        "site": "BSG", "status": "shipped, courier due 2026-12-02", "raised_on": "2026-11-25",
    },
    "AXS-30420": {
        "type": "mfa_reset", "employee_id": "STF-6412", "method": "authenticator_app",
        "status": "completed", "raised_on": "2026-11-26",
    },
    "AXS-30421": {
        "type": "device", "employee_id": "STF-4821", "device": "iphone", "quantity": 1,
        "site": "CWF", "status": "being prepared", "raised_on": "2026-11-27",
    },
}

LEAVERS: dict[str, dict] = {}
_next = [30422]


def _employee(employee_id: str) -> dict:
    emp = EMPLOYEES.get(employee_id)
    if emp is None:
        raise ToolError(f"No employee with staff number {employee_id}. Check the number and try again.")
    return emp


def _raise(record: dict) -> dict:
    request_id = f"AXS-{_next[0]}"
    _next[0] += 1
    REQUESTS[request_id] = {**record, "raised_on": "2026-12-01"}
    return {"request_id": request_id, **REQUESTS[request_id]}


@server.tool(
    description="Find employees by name (full or partial). Returns their staff numbers and departments.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_employee(name: Annotated[str, Field(min_length=2, description="Name or part of it")]) -> dict:
    words = name.lower().split()
    matches = [
        {"employee_id": sid, **emp, "leaver": sid in LEAVERS}
        for sid, emp in EMPLOYEES.items()
        if all(w in emp["name"].lower() for w in words)
    ]
    if not matches:
        raise ToolError(f"No employee matches '{name}'.")
    return {"matches": matches}


@server.tool(
    description=(
        "Raise a request for an employee's access to a bank system or shared drive. "
        "Optional end_date makes the access temporary."
    ),
    annotations=ToolAnnotations(readOnlyHint=False),
)
def request_access(
    employee_id: StaffId,
    system: System,
    access_level: AccessLevel,
    end_date: IsoDate | None = None,
) -> dict:
    emp = _employee(employee_id)
    if end_date is not None and end_date <= "2026-12-01":
        raise ToolError(f"end_date {end_date} is not in the future.")
    record = {
        "type": "access", "employee_id": employee_id, "employee": emp["name"],
        "system": system, "access_level": access_level,
        "status": "awaiting system owner approval" if access_level == "admin" else "submitted",
    }
    if end_date is not None:
        record["end_date"] = end_date
    return _raise(record)


@server.tool(
    description="Order laptops or phones, delivered to one of the bank's sites.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def order_device(
    employee_id: StaffId,
    device: Device,
    quantity: Annotated[int, Field(ge=1, le=50)],
    site: Site,
) -> dict:
    emp = _employee(employee_id)
    return _raise({
        "type": "device", "employee_id": employee_id, "ordered_by": emp["name"],
        "device": device, "quantity": quantity, "site": site,
        "delivery_address": SITES[site], "status": "submitted",
    })


@server.tool(
    description="Reset an employee's multi-factor authentication so they can enrol the method again.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def reset_mfa(employee_id: StaffId, method: MfaMethod) -> dict:
    emp = _employee(employee_id)
    result = _raise({
        "type": "mfa_reset", "employee_id": employee_id, "employee": emp["name"],
        "method": method, "status": "completed",
    })
    result["next_step"] = "Re-enrol at https://mfa.intranet.bank within 24 hours."
    return result


@server.tool(
    description="Turn multi-factor authentication off for an employee's account.",
    annotations=ToolAnnotations(readOnlyHint=False),
)
def disable_mfa(employee_id: StaffId) -> dict:
    emp = _employee(employee_id)
    return _raise({
        "type": "mfa_disable", "employee_id": employee_id, "employee": emp["name"],
        "status": "completed",
    })


@server.tool(
    description=(
        "Remove all of a leaver's system, drive and remote access at the end of their last "
        "working day. Raising it again for the same person replaces the date."
    ),
    annotations=ToolAnnotations(readOnlyHint=False),
)
def revoke_leaver_access(employee_id: StaffId, last_day: IsoDate) -> dict:
    emp = _employee(employee_id)
    previous = LEAVERS.get(employee_id)
    if previous is not None:
        REQUESTS[previous["request_id"]]["last_day"] = last_day
        previous["last_day"] = last_day
        return {"request_id": previous["request_id"], **REQUESTS[previous["request_id"]], "updated": True}
    result = _raise({
        "type": "leaver", "employee_id": employee_id, "employee": emp["name"],
        "last_day": last_day,
        "status": "access removed" if last_day < "2026-12-01" else f"scheduled for end of {last_day}",
    })
    LEAVERS[employee_id] = {"request_id": result["request_id"], "last_day": last_day}
    return result


@server.tool(
    description="Status of one desk request by its number.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_request_status(request_id: RequestId) -> dict:
    record = REQUESTS.get(request_id)
    if record is None:
        raise ToolError(f"No request {request_id}. Request numbers look like AXS-30412.")
    return {"request_id": request_id, **record}


@server.tool(
    description="All desk requests raised for an employee (access, devices, MFA resets, leavers), newest first.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def list_requests(employee_id: StaffId) -> dict:
    _employee(employee_id)
    rows = [
        {"request_id": rid, **rec}
        for rid, rec in sorted(REQUESTS.items(), reverse=True)
        if rec["employee_id"] == employee_id
    ]
    return {"employee_id": employee_id, "requests": rows}


if __name__ == "__main__":
    run(server)
