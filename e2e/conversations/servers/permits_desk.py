"""MCP server of the permits desk (a blind evaluation skill, round 20): the
Town of Alder Creek building department — permits for home works, site
inspections, plan review, fee estimates and renewals. Deterministic, in-memory,
seeded with a handful of permits; "today" is fixed at 2026-12-01
(America/New_York)."""

import calendar
import re
from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-permits_desk")

TODAY = date(2026, 12, 1)

PermitId = Annotated[
    str,
    Field(pattern=r"^BLD-[0-9]{4}$", description="Permit number, e.g. BLD-4102"),
]
InspectionId = Annotated[
    str,
    Field(pattern=r"^INS-[0-9]{4}$", description="Inspection number, e.g. INS-3340"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD"),
]
ClockTime = Annotated[
    str,
    Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Local time, HH:MM (24 h)"),
]
WorkType = Literal["deck", "roof", "fence", "addition", "shed"]
InspectionType = Literal["footing", "framing", "electrical", "plumbing", "insulation", "final"]

# Fee schedule: a base fee plus a rate on the declared construction value;
# additions and decks also pay a plan-review fee; every permit pays the state
# training surcharge.
FEE_SCHEDULE = {
    "deck": {"base": 85.00, "rate": 0.009, "plan_review": 0.25},
    "roof": {"base": 60.00, "rate": 0.006, "plan_review": 0.0},
    "fence": {"base": 45.00, "rate": 0.003, "plan_review": 0.0},
    "addition": {"base": 250.00, "rate": 0.012, "plan_review": 0.25},
    "shed": {"base": 50.00, "rate": 0.005, "plan_review": 0.0},
}
STATE_SURCHARGE = 4.50
RENEWAL_FEE = 75.00


def _fees(work_type: str, project_value: float) -> dict:
    s = FEE_SCHEDULE[work_type]
    permit_fee = round(s["base"] + s["rate"] * project_value, 2)
    review_fee = round(permit_fee * s["plan_review"], 2)
    total = round(permit_fee + review_fee + STATE_SURCHARGE, 2)
    return {
        "permit_fee": permit_fee,
        "plan_review_fee": review_fee,
        "state_surcharge": STATE_SURCHARGE,
        "total": total,
    }


def _insp(iid, itype, d, t, status, result=None):
    return {"inspection_id": iid, "type": itype, "date": d, "time": t, "status": status, "result": result}


PERMITS: dict[str, dict] = {
    "BLD-4089": {
        "permit_id": "BLD-4089",
        "address": "58 Elm Terrace",
        "work_type": "deck",
        "description": "Rear deck, 14x18 ft, pressure-treated, with stairs to grade",
        "applicant": "Greg Hanley",
        "project_value": 18500.00,
        "status": "issued",
        "submitted_on": "2026-05-20",
        "issued_on": "2026-06-15",
        "expires_on": "2026-12-15",
        "plan_review": {"status": "approved", "examiner": "R. Castellano", "decided_on": "2026-06-12", "notes": ""},
        "fees": {"assessed": 412.00, "paid": 412.00},
        "inspections": ["INS-3290", "INS-3305"],
    },
    "BLD-4102": {
        "permit_id": "BLD-4102",
        "address": "22 Birch Road",
        "work_type": "deck",
        "description": "Front porch deck, 10x12 ft, composite boards",
        "applicant": "Maria Okafor",
        "project_value": 13200.00,
        "status": "issued",
        "submitted_on": "2026-05-28",
        "issued_on": "2026-06-10",
        "expires_on": "2026-12-10",
        "plan_review": {"status": "approved", "examiner": "J. Lindqvist", "decided_on": "2026-06-08", "notes": ""},
        "fees": {"assessed": 318.50, "paid": 318.50},
        "inspections": ["INS-3301"],
    },
    "BLD-4117": {
        "permit_id": "BLD-4117",
        "address": "9 Quarry Lane",
        "work_type": "roof",
        "description": "Tear-off and re-roof, architectural shingles, new sheathing",
        "applicant": "Tom Becker",
        "project_value": 21000.00,
        "status": "in_plan_review",
        "submitted_on": "2026-11-18",
        "issued_on": None,
        "expires_on": None,
        "plan_review": {
            "status": "in_review",
            "examiner": "J. Lindqvist",
            "target_decision": "2026-12-04",
            "notes": "Waiting on the sheathing spec sheet from the contractor.",
        },
        "fees": {"assessed": 186.00, "paid": 0.00},
        "inspections": [],
    },
    "BLD-4125": {
        "permit_id": "BLD-4125",
        "address": "140 Mill Street",
        "work_type": "addition",
        "description": "Single-storey rear sunroom addition, 16x20 ft",
        "applicant": "Priya Natarajan",
        "project_value": 74000.00,
        "status": "issued",
        "submitted_on": "2026-08-25",
        "issued_on": "2026-09-15",
        "expires_on": "2027-03-15",
        "plan_review": {"status": "approved", "examiner": "R. Castellano", "decided_on": "2026-09-11", "notes": ""},
        "fees": {"assessed": 1146.00, "paid": 900.00},
        "inspections": ["INS-3312", "INS-3340", "INS-3341"],
    },
    "BLD-4131": {
        "permit_id": "BLD-4131",
        "address": "7 Harbor View Court",
        "work_type": "fence",
        "description": "6 ft cedar privacy fence, 140 linear ft, side and rear yard",
        "applicant": "Dale Whitcombe",
        "project_value": 7400.00,
        "status": "issued",
        "submitted_on": "2026-11-09",
        "issued_on": "2026-11-20",
        "expires_on": "2027-05-20",
        "plan_review": {"status": "approved", "examiner": "J. Lindqvist", "decided_on": "2026-11-19", "notes": ""},
        "fees": {"assessed": 71.70, "paid": 71.70},
        "inspections": ["INS-3352"],
    },
    "BLD-4138": {
        "permit_id": "BLD-4138",
        "address": "3 Fenwick Place",
        "work_type": "shed",
        "description": "Detached storage shed, 10x14 ft, on concrete piers",
        "applicant": "Ana Ruiz",
        "project_value": 5600.00,
        "status": "expired",
        "submitted_on": "2026-04-21",
        "issued_on": "2026-05-02",
        "expires_on": "2026-11-02",
        "plan_review": {"status": "approved", "examiner": "R. Castellano", "decided_on": "2026-04-30", "notes": ""},
        "fees": {"assessed": 82.50, "paid": 82.50},
        "inspections": ["INS-3268"],
    },
    "BLD-4146": {
        "permit_id": "BLD-4146",
        "address": "88 Tanner Street",
        "work_type": "addition",
        "description": "Two-storey side addition: garage with bedroom above",
        "applicant": "Ray Osei",
        "project_value": 126000.00,
        "status": "issued",
        "submitted_on": "2026-09-30",
        "issued_on": "2026-10-20",
        "expires_on": "2027-04-20",
        "plan_review": {"status": "approved", "examiner": "R. Castellano", "decided_on": "2026-10-16", "notes": ""},
        "fees": {"assessed": 2207.00, "paid": 2207.00},
        "inspections": [],
    },
}

INSPECTIONS: dict[str, dict] = {
    "INS-3268": {**_insp("INS-3268", "footing", "2026-05-14", "09:00", "completed", "passed"), "permit_id": "BLD-4138"},
    "INS-3290": {**_insp("INS-3290", "footing", "2026-06-29", "10:30", "completed", "passed"), "permit_id": "BLD-4089"},
    "INS-3301": {**_insp("INS-3301", "footing", "2026-07-02", "08:30", "completed", "passed"), "permit_id": "BLD-4102"},
    "INS-3305": {**_insp("INS-3305", "framing", "2026-08-11", "13:00", "completed", "passed"), "permit_id": "BLD-4089"},
    "INS-3312": {**_insp("INS-3312", "footing", "2026-10-06", "09:30", "completed", "passed"), "permit_id": "BLD-4125"},
    "INS-3340": {**_insp("INS-3340", "framing", "2026-12-03", "10:00", "scheduled"), "permit_id": "BLD-4125"},
    "INS-3341": {**_insp("INS-3341", "plumbing", "2026-12-03", "13:30", "scheduled"), "permit_id": "BLD-4125"},
    "INS-3352": {**_insp("INS-3352", "final", "2026-12-08", "13:00", "scheduled"), "permit_id": "BLD-4131"},
}

_next = {"permit": 4150, "inspection": 3360}

_ABBREV = {
    "rd": "road", "st": "street", "ln": "lane", "ct": "court", "ave": "avenue",
    "av": "avenue", "ter": "terrace", "terr": "terrace", "pl": "place", "dr": "drive",
    "blvd": "boulevard", "cir": "circle", "hwy": "highway",
}


def _norm_address(text: str) -> str:
    words = re.sub(r"[^a-z0-9 ]", " ", text.lower()).split()
    return " ".join(_ABBREV.get(w, w) for w in words)


def _permit(permit_id: str) -> dict:
    p = PERMITS.get(permit_id)
    if p is None:
        known = ", ".join(sorted(PERMITS))
        raise ToolError(f"No permit {permit_id} on file. Permit numbers look like BLD-4102 (on file: {known}).")
    return p


def _inspection(inspection_id: str) -> dict:
    i = INSPECTIONS.get(inspection_id)
    if i is None:
        raise ToolError(f"No inspection {inspection_id} on file. Inspection numbers look like INS-3340.")
    return i


def _parse_date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a valid calendar date (YYYY-MM-DD).") from None


def _check_slot(d: date, t: str, expires_on: str | None) -> None:
    if d <= TODAY:
        raise ToolError(f"Inspections are booked from the next working day on; {d.isoformat()} is too early (today is {TODAY.isoformat()}).")
    if d.weekday() >= 5:
        raise ToolError(f"Inspectors go out Monday to Friday only; {d.isoformat()} is a {d.strftime('%A')}.")
    if d in (date(2026, 12, 25), date(2027, 1, 1)):
        raise ToolError(f"The building department is closed on {d.isoformat()} (holiday).")
    hh, mm = (int(x) for x in t.split(":"))
    if mm not in (0, 30) or not (8 <= hh <= 15) or (hh == 15 and mm == 30):
        raise ToolError(f"Inspection slots start on the hour or half hour between 08:00 and 15:00; {t} is not a slot.")
    if expires_on and d > date.fromisoformat(expires_on):
        raise ToolError(f"The permit expires on {expires_on}; renew it before booking an inspection on {d.isoformat()}.")


def _add_months(d: date, months: int) -> date:
    m = d.month - 1 + months
    y = d.year + m // 12
    m = m % 12 + 1
    return date(y, m, min(d.day, calendar.monthrange(y, m)[1]))


def _view(p: dict) -> dict:
    out = {k: v for k, v in p.items() if k not in ("inspections", "fees")}
    out["fees"] = {
        "assessed": p["fees"]["assessed"],
        "paid": p["fees"]["paid"],
        "balance_due": round(p["fees"]["assessed"] - p["fees"]["paid"], 2),
    }
    if p["expires_on"]:
        out["days_until_expiry"] = (date.fromisoformat(p["expires_on"]) - TODAY).days
    out["inspections"] = [
        {k: v for k, v in INSPECTIONS[i].items() if k != "permit_id"} for i in p["inspections"]
    ]
    return out


@server.tool(
    description="Look up a building permit or permit application by its number: status, plan-review "
    "progress, fees assessed/paid/balance, issue and expiry dates, and its inspections.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_permit(permit_id: PermitId) -> dict:
    return _view(_permit(permit_id))


@server.tool(
    description="Find the permits and applications on file for a street address (e.g. '22 Birch Road'), "
    "with their numbers, status, expiry and inspections.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_permits(address: Annotated[str, Field(min_length=3, description="Street address of the property")]) -> dict:
    wanted = _norm_address(address)
    found = [_view(p) for p in PERMITS.values() if _norm_address(p["address"]) == wanted]
    if not found:
        return {"address": address, "permits": [], "message": f"No permits or applications on file for {address}."}
    return {"address": found[0]["address"], "permits": found}


@server.tool(
    description="Estimate the permit fees for a project from its type of work and its declared construction value.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def estimate_fee(
    work_type: WorkType,
    project_value: Annotated[float, Field(gt=0, description="Estimated construction cost, USD")],
) -> dict:
    return {"work_type": work_type, "project_value": project_value, **_fees(work_type, project_value)}


@server.tool(
    description="File a new building permit application for a property. It goes into plan review; the fees are assessed at filing.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def submit_application(
    site_address: Annotated[str, Field(min_length=3, description="Street address of the work")],
    work_type: WorkType,
    project_value: Annotated[float, Field(gt=0, description="Estimated construction cost, USD")],
    applicant_name: Annotated[str, Field(min_length=2, description="Name the application is filed under")],
) -> dict:
    pid = f"BLD-{_next['permit']}"
    _next["permit"] += 1
    fees = _fees(work_type, project_value)
    target = TODAY
    days = 0
    while days < 10:
        target += timedelta(days=1)
        if target.weekday() < 5:
            days += 1
    PERMITS[pid] = {
        "permit_id": pid,
        "address": site_address,
        "work_type": work_type,
        "description": "",
        "applicant": applicant_name,
        "project_value": project_value,
        "status": "in_plan_review",
        "submitted_on": TODAY.isoformat(),
        "issued_on": None,
        "expires_on": None,
        "plan_review": {"status": "queued", "examiner": None, "target_decision": target.isoformat(), "notes": ""},
        "fees": {"assessed": fees["total"], "paid": 0.0},
        "inspections": [],
    }
    return {
        "permit_id": pid,
        "status": "in_plan_review",
        "target_decision": target.isoformat(),
        "fees_due": fees,
        "message": f"Application {pid} filed for {work_type} work at {site_address} under {applicant_name}.",
    }


@server.tool(
    description="Book a site inspection on an issued permit for a weekday slot (08:00-15:00, on the hour or half hour).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_inspection(
    permit_id: PermitId,
    inspection_type: InspectionType,
    date: IsoDate,
    time: ClockTime,
) -> dict:
    p = _permit(permit_id)
    if p["status"] == "in_plan_review":
        raise ToolError(f"{permit_id} is still in plan review; inspections can be booked once the permit is issued.")
    if p["status"] == "expired":
        raise ToolError(f"{permit_id} expired on {p['expires_on']}; renew it before booking inspections.")
    d = _parse_date(date, "Date")
    _check_slot(d, time, p["expires_on"])
    iid = f"INS-{_next['inspection']}"
    _next["inspection"] += 1
    INSPECTIONS[iid] = {**_insp(iid, inspection_type, d.isoformat(), time, "scheduled"), "permit_id": permit_id}
    p["inspections"].append(iid)
    return {
        "inspection_id": iid,
        "permit_id": permit_id,
        "type": inspection_type,
        "date": d.isoformat(),
        "time": time,
        "status": "scheduled",
        "address": p["address"],
    }


@server.tool(
    description="Move a scheduled inspection to another weekday slot (08:00-15:00, on the hour or half hour).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def reschedule_inspection(
    inspection_id: InspectionId,
    new_date: IsoDate,
    new_time: ClockTime,
) -> dict:
    i = _inspection(inspection_id)
    if i["status"] != "scheduled":
        raise ToolError(f"{inspection_id} was already {i['status']} on {i['date']}; only scheduled inspections can be moved.")
    p = PERMITS[i["permit_id"]]
    d = _parse_date(new_date, "New date")
    _check_slot(d, new_time, p["expires_on"])
    previous = {"date": i["date"], "time": i["time"]}
    i["date"], i["time"] = d.isoformat(), new_time
    return {
        "inspection_id": inspection_id,
        "permit_id": i["permit_id"],
        "type": i["type"],
        "previous": previous,
        "date": i["date"],
        "time": i["time"],
        "status": "scheduled",
    }


@server.tool(
    description="Renew (extend) an issued permit, or one expired less than 180 days ago, by a number of months "
    f"from its current expiry date. Renewal fee ${RENEWAL_FEE:.2f}.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def renew_permit(
    permit_id: PermitId,
    months: Annotated[int, Field(ge=1, le=12, description="Months to extend the permit by")],
) -> dict:
    p = _permit(permit_id)
    if p["status"] == "in_plan_review":
        raise ToolError(f"{permit_id} has not been issued yet, so there is nothing to renew.")
    old = date.fromisoformat(p["expires_on"])
    if (TODAY - old).days > 180:
        raise ToolError(f"{permit_id} expired on {old.isoformat()}, more than 180 days ago; a new application is needed.")
    new = _add_months(old, months)
    p["expires_on"] = new.isoformat()
    p["status"] = "issued"
    p["fees"]["assessed"] = round(p["fees"]["assessed"] + RENEWAL_FEE, 2)
    return {
        "permit_id": permit_id,
        "previous_expiry": old.isoformat(),
        "new_expiry": new.isoformat(),
        "months": months,
        "renewal_fee": RENEWAL_FEE,
        "status": "issued",
    }


@server.tool(
    description="Record a plan examiner's decision on an application in plan review (examiners' tool).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False),
)
def record_review_decision(
    permit_id: PermitId,
    decision: Literal["approved", "changes_requested", "denied"],
) -> dict:
    p = _permit(permit_id)
    if p["status"] != "in_plan_review":
        raise ToolError(f"{permit_id} is not in plan review (status: {p['status']}).")
    p["plan_review"] = {**p["plan_review"], "status": decision, "decided_on": TODAY.isoformat()}
    if decision == "approved":
        p["status"] = "issued"
        p["issued_on"] = TODAY.isoformat()
        p["expires_on"] = _add_months(TODAY, 6).isoformat()
    return {"permit_id": permit_id, "decision": decision, "status": p["status"]}


if __name__ == "__main__":
    run(server)
