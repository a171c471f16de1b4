"""Blind evaluation server (round 18): a university exam office.

Candidates (students) are known by their candidate number (CAND-40817), modules
by their code (CHEM2041). Office requests (registrations, resit bookings,
special-arrangement requests, clash reports, transcript orders) get an EXO-
reference. Deterministic, in-memory, seeded with a handful of students.
"""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-exams")

CandidateNumber = Annotated[
    str,
    Field(
        pattern=r"^CAND-[0-9]{5}$",
        description="The student's candidate number, e.g. CAND-40817",
    ),
]
ModuleCode = Annotated[
    str,
    Field(
        pattern=r"^[A-Z]{4}[0-9]{4}$",
        description="Module code: four capital letters and four digits, e.g. CHEM2041",
    ),
]

# -- seed data ---------------------------------------------------------------

EXAMS = {
    # code: (title, date, start, venue)
    "CHEM2041": ("Organic Chemistry II", "2026-12-09", "09:30", "Great Hall"),
    "CHEM2050": ("Physical Chemistry II", "2026-12-14", "09:30", "Great Hall"),
    "MATH2010": ("Mathematical Methods for Scientists", "2026-12-14", "09:30", "Sports Centre"),
    "ECON2101": ("Intermediate Macroeconomics", "2026-12-08", "14:00", "Great Hall"),
    "STAT2003": ("Statistical Inference", "2026-12-08", "14:00", "Hartley Building 1.02"),
    "ECON2150": ("Econometrics I", "2026-12-16", "09:30", "Sports Centre"),
    "HIST3204": ("Modern European History", "2026-12-10", "14:00", "Great Hall"),
    "PHIL3002": ("Applied Ethics", "2026-12-10", "14:00", "Hartley Building 1.02"),
    "COMP2310": ("Algorithms", "2026-12-11", "09:30", "Great Hall"),
    "COMP2320": ("Databases", "2026-12-17", "14:00", "Sports Centre"),
    "PSYC2150": ("Cognitive Psychology", "2026-12-15", "09:30", "Great Hall"),
    "PSYC2160": ("Social Psychology", "2026-12-15", "14:00", "Great Hall"),
}

PAST_MODULES = {
    "MATH1010": "Foundation Mathematics",
    "CHEM1020": "Introductory Chemistry",
    "ECON1102": "Principles of Microeconomics",
    "ECON1110": "Economic History",
    "HIST2201": "Europe 1815-1914",
    "COMP1005": "Programming Fundamentals",
    "PSYC1001": "Introduction to Psychology",
}

RESIT_PERIODS = {
    "january": "18-29 January 2027",
    "august": "16-27 August 2027",
}

PASS_MARK = 40

STUDENTS = {
    "CAND-40817": {
        "name": "Priya Shah",
        "programme": "BSc Chemistry, year 2",
        "modules": ["CHEM2041", "CHEM2050", "MATH2010"],
        "registered": ["CHEM2041", "CHEM2050", "MATH2010"],
        "results": {"CHEM1020": 62, "MATH1010": 38},
    },
    "CAND-40562": {
        "name": "Tom Okafor",
        "programme": "BSc Economics, year 2",
        "modules": ["ECON2101", "STAT2003", "ECON2150"],
        "registered": ["ECON2101", "STAT2003"],
        "results": {"ECON1102": 35, "ECON1110": 58},
    },
    "CAND-41290": {
        "name": "Hannah Lewis",
        "programme": "BA History and Philosophy, year 3",
        "modules": ["HIST3204", "PHIL3002"],
        "registered": ["HIST3204", "PHIL3002"],
        "results": {"HIST2201": 71},
    },
    "CAND-42003": {
        "name": "Marek Nowak",
        "programme": "BSc Computer Science, year 2",
        "modules": ["COMP2310", "COMP2320"],
        "registered": ["COMP2310"],
        "results": {"COMP1005": 44, "MATH1010": 36},
    },
    "CAND-40991": {
        "name": "Aisha Rahman",
        "programme": "BSc Psychology, year 2",
        "modules": ["PSYC2150", "PSYC2160"],
        "registered": ["PSYC2150"],
        "results": {"PSYC1001": 65},
    },
    "CAND-43310": {
        "name": "Daniel Shah",
        "programme": "BSc Economics, year 1",
        "modules": [],
        "registered": [],
        "results": {},
    },
}

REQUESTS = [
    {
        "reference": "EXO-4410",
        "candidate_number": "CAND-41290",
        "kind": "special_arrangements",
        "details": {"extra_time_percent": 25, "room": "separate_room"},
        "submitted": "2026-11-17",
        "status": "approved by the Disability and Wellbeing Service on 2026-11-26",
    },
    {
        "reference": "EXO-4452",
        "candidate_number": "CAND-40562",
        "kind": "transcript",
        "details": {"copies": 2, "format": "printed"},
        "submitted": "2026-11-24",
        "status": "posted on 2026-11-27 by first-class mail",
    },
]
_next_ref = [4501]
ARRANGEMENTS = {"CAND-41290": {"extra_time_percent": 25, "room": "separate_room"}}
RESITS: dict[tuple[str, str], str] = {}
CLASH_SITTING = "17:30"


def _student(candidate_number: str) -> dict:
    student = STUDENTS.get(candidate_number)
    if student is None:
        raise ToolError(f"No student has candidate number {candidate_number}.")
    return student


def _new_request(candidate_number: str, kind: str, details: dict, status: str) -> dict:
    ref = f"EXO-{_next_ref[0]}"
    _next_ref[0] += 1
    req = {
        "reference": ref,
        "candidate_number": candidate_number,
        "kind": kind,
        "details": details,
        "submitted": "2026-12-01",
        "status": status,
    }
    REQUESTS.append(req)
    return req


def _find_request(candidate_number: str, kind: str, **details) -> dict | None:
    for req in REQUESTS:
        if (
            req["candidate_number"] == candidate_number
            and req["kind"] == kind
            and all(req["details"].get(k) == v for k, v in details.items())
        ):
            return req
    return None


def _exam_row(code: str, moved: dict) -> dict:
    title, date, start, venue = EXAMS[code]
    if code in moved:
        start, venue = moved[code], "Exams Office clash room"
    return {"module_code": code, "title": title, "date": date, "start_time": start, "venue": venue}


MOVED: dict[str, dict[str, str]] = {}


# -- tools -------------------------------------------------------------------


@server.tool(
    description="Find students by name (full or partial). Returns each match's candidate number and programme.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_student(name: Annotated[str, Field(min_length=2, description="The student's name, e.g. Priya Shah")]) -> dict:
    words = name.lower().split()
    matches = [
        {"candidate_number": cand, "name": s["name"], "programme": s["programme"]}
        for cand, s in STUDENTS.items()
        if all(w in s["name"].lower() for w in words)
    ]
    if not matches:
        raise ToolError(f"No student found matching '{name}'.")
    return {"matches": matches}


@server.tool(
    description=(
        "A student's exam record: their modules, which exams they are registered for with "
        "date, time and venue, flagged timetable clashes, resit bookings, special "
        "arrangements, published results (pass mark 40) and their office requests "
        "(registrations, transcript orders, clash reports) with status."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_student_record(candidate_number: CandidateNumber) -> dict:
    s = _student(candidate_number)
    moved = MOVED.get(candidate_number, {})
    exams = [_exam_row(c, moved) for c in s["registered"]]
    slots: dict[tuple[str, str], list[str]] = {}
    for e in exams:
        slots.setdefault((e["date"], e["start_time"]), []).append(e["module_code"])
    clashes = [
        {"date": d, "start_time": t, "modules": mods} for (d, t), mods in sorted(slots.items()) if len(mods) > 1
    ]
    return {
        "candidate_number": candidate_number,
        "name": s["name"],
        "programme": s["programme"],
        "modules": [{"module_code": c, "title": EXAMS[c][0], "registered": c in s["registered"]} for c in s["modules"]],
        "exam_timetable": sorted(exams, key=lambda e: (e["date"], e["start_time"])),
        "clashes": clashes,
        "results": [
            {
                "module_code": c,
                "title": PAST_MODULES.get(c, c),
                "mark": m,
                "outcome": "pass" if m >= PASS_MARK else "fail - resit available",
            }
            for c, m in s["results"].items()
        ],
        "resits": [
            {"module_code": c, "period": p, "dates": RESIT_PERIODS[p]}
            for (cand, c), p in RESITS.items()
            if cand == candidate_number
        ],
        "special_arrangements": ARRANGEMENTS.get(candidate_number),
        "requests": [r for r in REQUESTS if r["candidate_number"] == candidate_number],
    }


@server.tool(
    description="Register a student for the main exam of one of their modules in the December 2026 exam period.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def register_exam(candidate_number: CandidateNumber, module_code: ModuleCode) -> dict:
    s = _student(candidate_number)
    if module_code not in EXAMS:
        raise ToolError(f"Unknown module code {module_code}, or the module has no exam this period.")
    if module_code not in s["modules"]:
        raise ToolError(f"{candidate_number} is not enrolled on {module_code}; the department must enrol them first.")
    if module_code not in s["registered"]:
        s["registered"].append(module_code)
        _new_request(candidate_number, "registration", {"module_code": module_code}, "confirmed")
    return {"candidate_number": candidate_number, "registered": True, "exam": _exam_row(module_code, MOVED.get(candidate_number, {}))}


@server.tool(
    description=(
        "Book a resit of a failed module (mark under 40) in a resit period: "
        "january (18-29 January 2027) or august (16-27 August 2027)."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def book_resit(
    candidate_number: CandidateNumber,
    module_code: ModuleCode,
    period: Annotated[Literal["january", "august"], Field(description="Resit period")],
) -> dict:
    s = _student(candidate_number)
    if module_code not in s["results"]:
        raise ToolError(f"{candidate_number} has no result for {module_code}, so there is nothing to resit.")
    if s["results"][module_code] >= PASS_MARK:
        raise ToolError(f"{candidate_number} passed {module_code} ({s['results'][module_code]}); only failed modules can be resat.")
    key = (candidate_number, module_code)
    existing = RESITS.get(key)
    RESITS[key] = period
    if existing is None:
        req = _new_request(candidate_number, "resit", {"module_code": module_code, "period": period}, "booked")
    else:
        # a second booking of the same module moves it to the period now asked for
        req = _find_request(candidate_number, "resit", module_code=module_code)
        req["details"]["period"] = period
        req["status"] = "booked" if existing == period else f"moved from {existing} to {period}"
    return {
        "reference": req["reference"],
        "candidate_number": candidate_number,
        "module_code": module_code,
        "period": period,
        "dates": RESIT_PERIODS[period],
        "fee": "none for a first resit",
    }


@server.tool(
    description=(
        "Request special exam arrangements for a student for all their exams: extra time "
        "as a percentage of each exam's length (0 for none; 25 is the standard allowance) "
        "and where they sit (main_hall with everyone, or separate_room)."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def request_arrangements(
    candidate_number: CandidateNumber,
    extra_time_percent: Annotated[int, Field(ge=0, le=100, description="Extra time in percent of the exam's length")],
    room: Annotated[Literal["main_hall", "separate_room"], Field(description="Where the student sits")],
) -> dict:
    _student(candidate_number)
    details = {"extra_time_percent": extra_time_percent, "room": room}
    req = _find_request(candidate_number, "special_arrangements", **details)
    if req is None:
        ARRANGEMENTS[candidate_number] = details
        req = _new_request(candidate_number, "special_arrangements", details, "in place")
    return {"reference": req["reference"], "candidate_number": candidate_number, **details, "status": req["status"]}


@server.tool(
    description=(
        "Report a timetable clash: two or more of the student's exams at the same date and "
        "start time. The office moves the later-registered one to the supervised clash "
        "sitting at 17:30 the same day."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def report_clash(
    candidate_number: CandidateNumber,
    date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date of the clashing exams, YYYY-MM-DD")],
    start_time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Start time of the clashing exams, HH:MM (24-hour)")],
) -> dict:
    s = _student(candidate_number)
    existing = _find_request(candidate_number, "clash", date=date, start_time=start_time)
    if existing is not None:
        return {"reference": existing["reference"], **existing["details"], "status": existing["status"]}
    moved = MOVED.setdefault(candidate_number, {})
    at_slot = [c for c in s["registered"] if EXAMS[c][1] == date and EXAMS[c][2] == start_time and c not in moved]
    if len(at_slot) < 2:
        found = ", ".join(at_slot) or "none"
        raise ToolError(
            f"No clash for {candidate_number} on {date} at {start_time}: exams registered at that time: {found}."
        )
    move = at_slot[-1]
    moved[move] = CLASH_SITTING
    details = {"date": date, "start_time": start_time, "modules": at_slot, "moved": move}
    req = _new_request(candidate_number, "clash", details, f"{move} moved to {CLASH_SITTING} the same day")
    return {"reference": req["reference"], **details, "new_start_time": CLASH_SITTING, "status": req["status"]}


@server.tool(
    description="Order official transcripts of a student's results: a number of copies, as a certified pdf sent by email or printed and posted.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def order_transcript(
    candidate_number: CandidateNumber,
    copies: Annotated[int, Field(ge=1, le=10, description="Number of copies")],
    format: Annotated[Literal["pdf", "printed"], Field(description="pdf (emailed) or printed (posted)")],
) -> dict:
    s = _student(candidate_number)
    if not s["results"]:
        raise ToolError(f"{candidate_number} has no published results yet, so no transcript can be issued.")
    req = _new_request(
        candidate_number,
        "transcript",
        {"copies": copies, "format": format},
        "emailed within 1 working day" if format == "pdf" else "posted within 3 working days",
    )
    return {"reference": req["reference"], "candidate_number": candidate_number, "copies": copies, "format": format, "status": req["status"]}


@server.tool(
    description="Change a published module mark (Board of Examiners use only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def amend_mark(
    candidate_number: CandidateNumber,
    module_code: ModuleCode,
    mark: Annotated[int, Field(ge=0, le=100, description="The new mark")],
) -> dict:
    s = _student(candidate_number)
    if module_code not in s["results"]:
        raise ToolError(f"{candidate_number} has no published mark for {module_code}.")
    old = s["results"][module_code]
    s["results"][module_code] = mark
    return {"candidate_number": candidate_number, "module_code": module_code, "old_mark": old, "new_mark": mark}


if __name__ == "__main__":
    run(server)
