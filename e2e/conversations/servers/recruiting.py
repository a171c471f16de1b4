"""Blind evaluation server (round 16) for the `recruiting-desk` skill: a
company's internal recruiting desk. Job requisitions (JR-####), candidates
(CAND-####) with their pipeline stage, interviews (IV-####) and offers
(OF-####), held in memory and seeded with a handful of records. Deterministic:
new ids count up from the seed."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-recruiting")

RequisitionId = Annotated[
    str,
    Field(pattern=r"^JR-[0-9]{4}$", description="Job requisition id, e.g. JR-3107"),
]
CandidateId = Annotated[
    str,
    Field(pattern=r"^CAND-[0-9]{4}$", description="Candidate id, e.g. CAND-4471"),
]
Office = Literal["NYC", "CHI", "AUS", "SEA", "REMOTE"]
Department = Literal[
    "engineering", "design", "product", "sales", "customer_success", "marketing", "finance", "people"
]
Stage = Literal["applied", "phone_screen", "onsite", "references", "offer", "hired", "rejected"]
ReqStatus = Literal["open", "on_hold", "closed"]
InterviewType = Literal["recruiter_screen", "hiring_manager", "technical", "panel"]
WithdrawReason = Literal["budget_cut", "role_closed", "background_check", "candidate_unresponsive", "other"]

OFFICES = {
    "NYC": "New York",
    "CHI": "Chicago (HQ)",
    "AUS": "Austin",
    "SEA": "Seattle",
    "REMOTE": "Remote (US)",
}

REQUISITIONS: dict[str, dict] = {
    "JR-3107": {"title": "Senior Backend Engineer", "department": "engineering", "location": "AUS",
                "headcount": 2, "filled": 0, "status": "open", "salary_max": 165000,
                "hiring_manager": "Rafael Duarte", "opened_on": "2026-10-05"},
    "JR-3112": {"title": "Product Designer", "department": "design", "location": "NYC",
                "headcount": 1, "filled": 0, "status": "open", "salary_max": 140000,
                "hiring_manager": "Grace Okafor", "opened_on": "2026-10-19"},
    "JR-3120": {"title": "Financial Analyst", "department": "finance", "location": "CHI",
                "headcount": 1, "filled": 0, "status": "on_hold", "salary_max": 105000,
                "hiring_manager": "Lena Fischer", "opened_on": "2026-11-02"},
    "JR-3125": {"title": "Customer Success Manager", "department": "customer_success", "location": "CHI",
                "headcount": 3, "filled": 1, "status": "open", "salary_max": 98000,
                "hiring_manager": "Marcus Webb", "opened_on": "2026-11-09"},
    "JR-3131": {"title": "Site Reliability Engineer", "department": "engineering", "location": "REMOTE",
                "headcount": 1, "filled": 0, "status": "open", "salary_max": 170000,
                "hiring_manager": "Rafael Duarte", "opened_on": "2026-11-30"},
}

CANDIDATES: dict[str, dict] = {
    "CAND-4471": {"name": "Maya Lindqvist", "requisition_id": "JR-3107", "stage": "onsite"},
    "CAND-4472": {"name": "Jonas Berg", "requisition_id": "JR-3107", "stage": "offer"},
    "CAND-4480": {"name": "Priya Raman", "requisition_id": "JR-3112", "stage": "phone_screen"},
    "CAND-4486": {"name": "Tomás Ortega", "requisition_id": "JR-3125", "stage": "applied"},
    "CAND-4491": {"name": "Aisha Bello", "requisition_id": "JR-3131", "stage": "references"},
    "CAND-4495": {"name": "Dmitri Volkov", "requisition_id": "JR-3112", "stage": "offer"},
    "CAND-4502": {"name": "Hannah Kim", "requisition_id": "JR-3125", "stage": "phone_screen"},
    "CAND-4507": {"name": "Omar Haddad", "requisition_id": "JR-3107", "stage": "references"},
    "CAND-4513": {"name": "Chloe Martin", "requisition_id": "JR-3125", "stage": "offer"},
    "CAND-4519": {"name": "Ben Adeyemi", "requisition_id": "JR-3131", "stage": "onsite"},
    "CAND-4524": {"name": "Sofia Russo", "requisition_id": "JR-3120", "stage": "phone_screen"},
    "CAND-4530": {"name": "Lucas Weber", "requisition_id": "JR-3107", "stage": "phone_screen"},
    "CAND-4536": {"name": "Ines Carvalho", "requisition_id": "JR-3125", "stage": "references"},
    "CAND-4541": {"name": "Yuki Tanaka", "requisition_id": "JR-3131", "stage": "references"},
}

INTERVIEWS: dict[str, dict] = {
    "IV-7730": {"candidate_id": "CAND-4471", "date": "2026-11-24", "start_time": "13:00",
                "interview_type": "technical", "duration_minutes": 60, "status": "completed"},
    "IV-7741": {"candidate_id": "CAND-4480", "date": "2026-11-27", "start_time": "10:30",
                "interview_type": "recruiter_screen", "duration_minutes": 30, "status": "completed"},
}

OFFERS: dict[str, dict] = {
    "OF-0918": {"candidate_id": "CAND-4472", "base_salary": 158000, "start_date": "2027-01-04",
                "status": "sent", "sent_on": "2026-11-25"},
    "OF-0921": {"candidate_id": "CAND-4495", "base_salary": 128000, "start_date": "2027-01-11",
                "status": "sent", "sent_on": "2026-11-27"},
    "OF-0926": {"candidate_id": "CAND-4513", "base_salary": 91000, "start_date": "2027-01-04",
                "status": "sent", "sent_on": "2026-11-16"},
}

COUNTERS = {"JR": 3131, "IV": 7741, "OF": 926}


def _next(prefix: str, width: int) -> str:
    COUNTERS[prefix] += 1
    return f"{prefix}-{COUNTERS[prefix]:0{width}d}"


def _requisition(requisition_id: str) -> dict:
    req = REQUISITIONS.get(requisition_id)
    if req is None:
        raise ToolError(
            f"No requisition {requisition_id}. Known requisitions: {', '.join(sorted(REQUISITIONS))}."
        )
    return req


def _candidate(candidate_id: str) -> dict:
    cand = CANDIDATES.get(candidate_id)
    if cand is None:
        raise ToolError(f"No candidate {candidate_id}. Check the id on the candidate's profile.")
    return cand


def _live_offer(candidate_id: str) -> tuple[str, dict] | None:
    for offer_id, offer in OFFERS.items():
        if offer["candidate_id"] == candidate_id and offer["status"] == "sent":
            return offer_id, offer
    return None


def _req_view(requisition_id: str) -> dict:
    req = REQUISITIONS[requisition_id]
    pipeline = [
        {"candidate_id": cid, "name": c["name"], "stage": c["stage"]}
        for cid, c in sorted(CANDIDATES.items())
        if c["requisition_id"] == requisition_id
    ]
    return {
        "requisition_id": requisition_id,
        **req,
        "office": OFFICES[req["location"]],
        "openings_left": max(req["headcount"] - req["filled"], 0),
        "pipeline": pipeline,
    }


def _candidate_view(candidate_id: str) -> dict:
    cand = CANDIDATES[candidate_id]
    interviews = [
        {"interview_id": iid, **iv}
        for iid, iv in sorted(INTERVIEWS.items())
        if iv["candidate_id"] == candidate_id
    ]
    offers = [
        {"offer_id": oid, **of}
        for oid, of in sorted(OFFERS.items())
        if of["candidate_id"] == candidate_id
    ]
    req = REQUISITIONS[cand["requisition_id"]]
    return {
        "candidate_id": candidate_id,
        **cand,
        "requisition_title": req["title"],
        "interviews": interviews,
        "offers": offers,
    }


@server.tool(
    description="Look up a job requisition: title, department, office, headcount and openings left, "
    "status (open, on_hold, closed), salary cap, hiring manager and its candidate pipeline.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_requisition(requisition_id: RequisitionId) -> dict:
    _requisition(requisition_id)
    return _req_view(requisition_id)


@server.tool(
    description="Look up a candidate: name, requisition, current pipeline stage, interviews "
    "(scheduled and completed) and offers (sent or withdrawn).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_candidate(candidate_id: CandidateId) -> dict:
    _candidate(candidate_id)
    return _candidate_view(candidate_id)


@server.tool(
    description="Open a new job requisition. Returns its JR- id; it starts in status open.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def open_requisition(
    title: Annotated[str, Field(min_length=2, max_length=120, description="Job title")],
    department: Annotated[Department, Field(description="Department that owns the role")],
    location: Annotated[Office, Field(description="Office code: NYC, CHI (Chicago HQ), AUS, SEA or REMOTE")],
    headcount: Annotated[int, Field(ge=1, le=50, description="Number of people to hire")],
    salary_max: Annotated[
        float | None, Field(ge=0, description="Top of the base salary band, in US dollars")
    ] = None,
) -> dict:
    requisition_id = _next("JR", 4)
    REQUISITIONS[requisition_id] = {
        "title": title, "department": department, "location": location,
        "headcount": headcount, "filled": 0, "status": "open", "salary_max": salary_max,
        "hiring_manager": None, "opened_on": "2026-12-01",
    }
    return {"opened": True, **_req_view(requisition_id)}


@server.tool(
    description="Change an existing requisition: its headcount, status (open, on_hold, closed), "
    "office, or salary cap. Give only the fields that change.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def update_requisition(
    requisition_id: RequisitionId,
    headcount: Annotated[int | None, Field(ge=1, le=50, description="New total headcount")] = None,
    status: Annotated[ReqStatus | None, Field(description="open, on_hold or closed")] = None,
    location: Annotated[Office | None, Field(description="New office code")] = None,
    salary_max: Annotated[float | None, Field(ge=0, description="New salary cap, US dollars")] = None,
) -> dict:
    req = _requisition(requisition_id)
    changes = {
        k: v
        for k, v in {"headcount": headcount, "status": status, "location": location, "salary_max": salary_max}.items()
        if v is not None
    }
    if not changes:
        raise ToolError("Nothing to change: give a headcount, status, location or salary_max.")
    if "headcount" in changes and changes["headcount"] < req["filled"]:
        raise ToolError(
            f"{requisition_id} already has {req['filled']} hire(s); headcount cannot go below that."
        )
    before = {k: req[k] for k in changes}
    req.update(changes)
    return {"updated": True, "before": before, **_req_view(requisition_id)}


@server.tool(
    description="Move a candidate to another pipeline stage: applied, phone_screen, onsite, "
    "references, offer, hired or rejected.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def move_candidate(candidate_id: CandidateId, stage: Stage) -> dict:
    cand = _candidate(candidate_id)
    if cand["stage"] == "hired":
        raise ToolError(f"{candidate_id} is already hired; their application is closed.")
    previous = cand["stage"]
    cand["stage"] = stage
    return {"moved": True, "previous_stage": previous, **_candidate_view(candidate_id)}


@server.tool(
    description="Schedule an interview for a candidate on a date (YYYY-MM-DD) at a start time "
    "(HH:MM, 24-hour, company time America/Chicago). Duration defaults to 60 minutes.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def schedule_interview(
    candidate_id: CandidateId,
    date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="Interview date, YYYY-MM-DD")],
    start_time: Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="Start time, HH:MM 24-hour")],
    interview_type: Annotated[InterviewType, Field(description="recruiter_screen, hiring_manager, technical or panel")],
    duration_minutes: Annotated[int | None, Field(ge=15, le=480, description="Length in minutes")] = None,
) -> dict:
    cand = _candidate(candidate_id)
    if cand["stage"] == "hired":
        raise ToolError(f"{candidate_id} is already hired; no interviews can be scheduled.")
    if date < "2026-12-01":
        raise ToolError(f"{date} is in the past.")
    for iid, iv in INTERVIEWS.items():
        if iv["candidate_id"] == candidate_id and iv["date"] == date and iv["start_time"] == start_time:
            raise ToolError(f"{candidate_id} already has interview {iid} at {date} {start_time}.")
    interview_id = _next("IV", 4)
    INTERVIEWS[interview_id] = {
        "candidate_id": candidate_id, "date": date, "start_time": start_time,
        "interview_type": interview_type, "duration_minutes": duration_minutes or 60,
        "status": "scheduled",
    }
    return {"scheduled": True, "interview_id": interview_id, "candidate": cand["name"],
            **INTERVIEWS[interview_id]}


@server.tool(
    description="Make a candidate a written offer: base salary in US dollars and start date "
    "(YYYY-MM-DD). Moves the candidate to the offer stage. A candidate has at most one live offer.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def make_offer(
    candidate_id: CandidateId,
    base_salary: Annotated[float, Field(gt=0, description="Annual base salary, US dollars")],
    start_date: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="Start date, YYYY-MM-DD")],
) -> dict:
    cand = _candidate(candidate_id)
    if cand["stage"] == "hired":
        raise ToolError(f"{candidate_id} is already hired; an offer cannot be made.")
    live = _live_offer(candidate_id)
    if live is not None:
        raise ToolError(f"{candidate_id} already has a live offer {live[0]}; withdraw it first.")
    if start_date <= "2026-12-01":
        raise ToolError(f"Start date {start_date} must be after today.")
    offer_id = _next("OF", 4)
    OFFERS[offer_id] = {"candidate_id": candidate_id, "base_salary": base_salary,
                        "start_date": start_date, "status": "sent", "sent_on": "2026-12-01"}
    cand["stage"] = "offer"
    return {"offer_id": offer_id, "candidate": cand["name"], **OFFERS[offer_id]}


@server.tool(
    description="Withdraw a candidate's live (sent, not yet signed) offer, with the reason: "
    "budget_cut, role_closed, background_check, candidate_unresponsive or other.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def withdraw_offer(candidate_id: CandidateId, reason: WithdrawReason) -> dict:
    cand = _candidate(candidate_id)
    live = _live_offer(candidate_id)
    if live is None:
        raise ToolError(f"{candidate_id} ({cand['name']}) has no live offer to withdraw.")
    offer_id, offer = live
    offer["status"] = "withdrawn"
    offer["withdrawn_reason"] = reason
    return {"withdrawn": True, "offer_id": offer_id, "candidate": cand["name"], **offer}


if __name__ == "__main__":
    run(server)
