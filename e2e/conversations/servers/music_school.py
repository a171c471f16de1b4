"""MCP server of the music-school skill (a blind evaluation skill, round 21):
the front office of a community music school — students, teachers, weekly
lessons, ensembles, instrument rentals, recital sign-ups and tuition payments.
Deterministic, in-memory state seeded with a handful of records."""

import datetime
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-music_school")

STUDENT_ID = r"^MSS-[0-9]{4}$"
TEACHER_ID = r"^MST-[0-9]{2}$"
DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
TIME = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"

LessonInstrument = Literal[
    "piano", "voice", "violin", "viola", "cello", "double_bass", "guitar",
    "ukulele", "flute", "clarinet", "saxophone", "trumpet", "trombone", "drums",
]
RentalInstrument = Literal[
    "violin", "viola", "cello", "flute", "clarinet", "saxophone", "trumpet",
    "trombone", "guitar", "keyboard",
]
Ensemble = Literal[
    "youth_orchestra", "childrens_choir", "adult_choir", "jazz_band",
    "rock_lab", "chamber_strings",
]

TEACHERS = {
    "MST-11": {"name": "Ana Ruiz", "instruments": ["piano"], "room": "Room 2", "teaches_on": ["Monday", "Wednesday", "Thursday"]},
    "MST-12": {"name": "Tom Becker", "instruments": ["piano"], "room": "Room 3", "teaches_on": ["Tuesday", "Friday", "Saturday"]},
    "MST-14": {"name": "Grace Okonkwo", "instruments": ["violin", "viola"], "room": "Room 5", "teaches_on": ["Monday", "Wednesday", "Saturday"]},
    "MST-15": {"name": "Elliot Marsh", "instruments": ["cello", "double_bass"], "room": "Room 6", "teaches_on": ["Tuesday", "Friday"]},
    "MST-17": {"name": "June Park", "instruments": ["voice"], "room": "Room 1", "teaches_on": ["Tuesday", "Wednesday", "Thursday"]},
    "MST-18": {"name": "Marcus Bell", "instruments": ["guitar", "ukulele"], "room": "Room 4", "teaches_on": ["Monday", "Thursday", "Saturday"]},
    "MST-19": {"name": "Rosa Delgado", "instruments": ["flute", "clarinet", "saxophone"], "room": "Room 7", "teaches_on": ["Tuesday", "Thursday"]},
    "MST-21": {"name": "Dev Patel", "instruments": ["trumpet", "trombone", "drums"], "room": "Band Room", "teaches_on": ["Wednesday", "Friday", "Saturday"]},
}

ENSEMBLES = {
    "youth_orchestra": {"name": "Youth Orchestra", "meets": "Saturdays 10:00-12:00", "ages": "8-18", "monthly_fee": 60.0},
    "childrens_choir": {"name": "Children's Choir", "meets": "Saturdays 09:00-09:45", "ages": "5-10", "monthly_fee": 40.0},
    "adult_choir": {"name": "Community Adult Choir", "meets": "Wednesdays 19:00-20:30", "ages": "18+", "monthly_fee": 45.0},
    "jazz_band": {"name": "Jazz Band", "meets": "Thursdays 18:00-19:30", "ages": "12+", "monthly_fee": 60.0},
    "rock_lab": {"name": "Rock Band Lab", "meets": "Fridays 17:00-18:30", "ages": "11-18", "monthly_fee": 70.0},
    "chamber_strings": {"name": "Chamber Strings", "meets": "Sundays 14:00-16:00", "ages": "13+", "monthly_fee": 60.0},
}

RECITALS = {
    "2026-12-12": "Winter Recital, Saturday afternoon (14:00, Main Hall)",
    "2026-12-13": "Winter Recital, Sunday afternoon (15:00, Main Hall)",
    "2027-03-14": "Spring Recital (Sunday 15:00, Main Hall)",
    "2027-05-23": "Year-End Showcase (Sunday 14:00, Main Hall)",
}

LESSON_MONTHLY = {30: 120.0, 45: 170.0, 60: 220.0}
RENTAL_MONTHLY = {
    "violin": 22.0, "viola": 24.0, "cello": 38.0, "flute": 25.0, "clarinet": 25.0,
    "saxophone": 42.0, "trumpet": 28.0, "trombone": 30.0, "guitar": 18.0, "keyboard": 20.0,
}
SIZED = {"violin", "viola", "cello", "guitar"}

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

STUDENTS = {
    "MSS-4102": {"name": "Maya Chen", "age": 11, "guardian": "Linda Chen", "balance": 0.0},
    "MSS-4117": {"name": "Leo Brennan", "age": 14, "guardian": "Kate Brennan", "balance": 285.0},
    "MSS-4126": {"name": "Nora Fitzgerald", "age": 13, "guardian": "Sean Fitzgerald", "balance": 212.75},
    "MSS-4135": {"name": "Priya Nair", "age": 34, "guardian": None, "balance": 0.0},
    "MSS-4150": {"name": "Sam Okafor", "age": 9, "guardian": "Ngozi Okafor", "balance": 640.0},
    "MSS-4168": {"name": "Hannah Weiss", "age": 16, "guardian": "Miriam Weiss", "balance": 1120.0},
    "MSS-4173": {"name": "Diego Morales", "age": 12, "guardian": "Luz Morales", "balance": 95.5},
    "MSS-4189": {"name": "Ava Lindqvist", "age": 7, "guardian": "Erik Lindqvist", "balance": 0.0},
    "MSS-4194": {"name": "Omar Haddad", "age": 41, "guardian": None, "balance": 0.0},
}

LESSONS = [
    {"enrollment_id": "MSE-7701", "student_id": "MSS-4102", "teacher_id": "MST-11", "instrument": "piano", "weekday": "Monday", "lesson_time": "16:00", "lesson_minutes": 30, "start_date": "2026-09-07"},
    {"enrollment_id": "MSE-7708", "student_id": "MSS-4117", "teacher_id": "MST-14", "instrument": "violin", "weekday": "Wednesday", "lesson_time": "17:00", "lesson_minutes": 45, "start_date": "2026-09-09"},
    {"enrollment_id": "MSE-7710", "student_id": "MSS-4126", "teacher_id": "MST-19", "instrument": "flute", "weekday": "Tuesday", "lesson_time": "16:00", "lesson_minutes": 45, "start_date": "2026-09-08"},
    {"enrollment_id": "MSE-7712", "student_id": "MSS-4135", "teacher_id": "MST-17", "instrument": "voice", "weekday": "Tuesday", "lesson_time": "19:00", "lesson_minutes": 60, "start_date": "2026-10-06"},
    {"enrollment_id": "MSE-7715", "student_id": "MSS-4150", "teacher_id": "MST-18", "instrument": "guitar", "weekday": "Thursday", "lesson_time": "15:30", "lesson_minutes": 30, "start_date": "2026-09-10"},
    {"enrollment_id": "MSE-7720", "student_id": "MSS-4168", "teacher_id": "MST-15", "instrument": "cello", "weekday": "Friday", "lesson_time": "16:30", "lesson_minutes": 60, "start_date": "2026-09-11"},
    {"enrollment_id": "MSE-7724", "student_id": "MSS-4173", "teacher_id": "MST-21", "instrument": "trumpet", "weekday": "Wednesday", "lesson_time": "16:00", "lesson_minutes": 30, "start_date": "2026-10-14"},
]

MEMBERSHIPS = [
    {"student_id": "MSS-4117", "ensemble": "youth_orchestra", "since": "2026-09-12"},
    {"student_id": "MSS-4168", "ensemble": "chamber_strings", "since": "2026-09-13"},
]

RENTALS = [
    {"rental_id": "MSR-2205", "student_id": "MSS-4117", "instrument": "violin", "size": "3/4", "tag": "MSI-0311", "months": 9, "start_date": "2026-09-01", "monthly_fee": 22.0},
]

RECITAL_SIGNUPS = [
    {"signup_id": "MSC-3304", "student_id": "MSS-4168", "recital_date": "2026-12-13", "piece": "Sicilienne", "performance_minutes": 4, "status": "confirmed"},
]

PAYMENTS = [
    {"payment_id": "MSP-5501", "student_id": "MSS-4102", "amount": 240.0, "method": "card_on_file", "date": "2026-11-03", "status": "posted"},
    {"payment_id": "MSP-5509", "student_id": "MSS-4117", "amount": 120.0, "method": "bank_account", "date": "2026-11-10", "status": "posted"},
    {"payment_id": "MSP-5518", "student_id": "MSS-4135", "amount": 440.0, "method": "mailed_check", "date": "2026-11-28", "status": "posted"},
]

WITHDRAWALS: list[dict] = []

COUNTERS = {"MSE": 7730, "MSR": 2210, "MSC": 3310, "MSP": 5520}


def _next(prefix: str) -> str:
    COUNTERS[prefix] += 1
    return f"{prefix}-{COUNTERS[prefix]}"


def _student(student_id: str) -> dict:
    student = STUDENTS.get(student_id)
    if student is None:
        raise ToolError(f"Unknown student id {student_id}: no student has that number.")
    return student


def _teacher(teacher_id: str) -> dict:
    teacher = TEACHERS.get(teacher_id)
    if teacher is None:
        raise ToolError(f"Unknown teacher id {teacher_id}: no teacher has that id.")
    return teacher


def _weekday(date: str) -> str:
    try:
        return WEEKDAYS[datetime.date.fromisoformat(date).weekday()]
    except ValueError as exc:
        raise ToolError(f"{date} is not a valid date (YYYY-MM-DD): {exc}.") from exc


@server.tool(
    description=(
        "Look up a student's file by student number: name, age, guardian, current weekly "
        "lessons, ensembles, instrument rentals, recital sign-ups, tuition balance and "
        "recent payments (with whether each has posted)."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_student(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
) -> dict:
    student = _student(student_id)
    lessons = []
    for lesson in LESSONS:
        if lesson["student_id"] == student_id:
            teacher = TEACHERS[lesson["teacher_id"]]
            lessons.append({**lesson, "teacher": teacher["name"], "room": teacher["room"]})
    return {
        "student_id": student_id,
        **student,
        "lessons": lessons,
        "ensembles": [
            {"ensemble": m["ensemble"], **ENSEMBLES[m["ensemble"]], "since": m["since"]}
            for m in MEMBERSHIPS
            if m["student_id"] == student_id
        ],
        "rentals": [r for r in RENTALS if r["student_id"] == student_id],
        "recital_signups": [
            {**s, "recital": RECITALS[s["recital_date"]]}
            for s in RECITAL_SIGNUPS
            if s["student_id"] == student_id
        ],
        "payments": [p for p in PAYMENTS if p["student_id"] == student_id],
    }


@server.tool(
    description=(
        "List the school's teachers for an instrument (or voice): teacher id, name, "
        "room and the days they teach."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_teachers(
    instrument: Annotated[LessonInstrument, Field(description="Instrument taught, or voice for singing")],
) -> dict:
    teachers = [
        {"teacher_id": tid, **t}
        for tid, t in TEACHERS.items()
        if instrument in t["instruments"]
    ]
    return {"instrument": instrument, "teachers": teachers}


@server.tool(
    description=(
        "Enroll a student in weekly private lessons with a teacher. The lessons repeat every "
        "week on the weekday of the first lesson, at the same time. Monthly tuition: "
        "30 min $120, 45 min $170, 60 min $220."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def enroll_lessons(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    teacher_id: Annotated[str, Field(pattern=TEACHER_ID, description="Teacher id, e.g. MST-11")],
    instrument: Annotated[LessonInstrument, Field(description="Instrument of the lessons, or voice")],
    start_date: Annotated[str, Field(pattern=DATE, description="Date of the first lesson, YYYY-MM-DD")],
    lesson_time: Annotated[str, Field(pattern=TIME, description="Start time, 24-hour HH:MM")],
    lesson_minutes: Annotated[Literal[30, 45, 60], Field(description="Lesson length in minutes")],
) -> dict:
    student = _student(student_id)
    teacher = _teacher(teacher_id)
    if instrument not in teacher["instruments"]:
        raise ToolError(
            f"{teacher['name']} ({teacher_id}) does not teach {instrument}; "
            f"they teach {', '.join(teacher['instruments'])}."
        )
    hour = int(lesson_time[:2])
    if hour < 9 or hour >= 21:
        raise ToolError("Lessons are scheduled between 09:00 and 21:00.")
    weekday = _weekday(start_date)
    if weekday == "Sunday":
        raise ToolError("The school does not schedule private lessons on Sundays.")
    enrollment = {
        "enrollment_id": _next("MSE"),
        "student_id": student_id,
        "teacher_id": teacher_id,
        "instrument": instrument,
        "weekday": weekday,
        "lesson_time": lesson_time,
        "lesson_minutes": lesson_minutes,
        "start_date": start_date,
    }
    LESSONS.append(enrollment)
    return {
        **enrollment,
        "student": student["name"],
        "teacher": teacher["name"],
        "room": teacher["room"],
        "monthly_tuition": LESSON_MONTHLY[lesson_minutes],
        "status": "enrolled",
    }


@server.tool(
    description=(
        "Add a student to one of the school's ensembles: youth_orchestra (Saturdays 10:00, "
        "ages 8-18), childrens_choir (Saturdays 09:00, ages 5-10), adult_choir (Wednesdays "
        "19:00, adults), jazz_band (Thursdays 18:00, 12+), rock_lab (teen rock band workshop, "
        "Fridays 17:00), chamber_strings (Sundays 14:00, 13+)."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def join_ensemble(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    ensemble: Annotated[Ensemble, Field(description="The ensemble to join")],
) -> dict:
    student = _student(student_id)
    for m in MEMBERSHIPS:
        if m["student_id"] == student_id and m["ensemble"] == ensemble:
            return {"student_id": student_id, "ensemble": ensemble, "status": "already a member", "since": m["since"]}
    MEMBERSHIPS.append({"student_id": student_id, "ensemble": ensemble, "since": "2026-12-01"})
    info = ENSEMBLES[ensemble]
    return {
        "student_id": student_id,
        "student": student["name"],
        "ensemble": ensemble,
        "name": info["name"],
        "meets": info["meets"],
        "monthly_fee": info["monthly_fee"],
        "status": "joined",
    }


@server.tool(
    description=(
        "Rent one of the school's instruments to a student for a number of months. "
        "Violin, viola, cello and guitar come in sizes (full, 3/4, 1/2, 1/4) and need one; "
        "saxophone is an alto saxophone. The monthly fee is billed with tuition."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def rent_instrument(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    instrument: Annotated[RentalInstrument, Field(description="Instrument to rent")],
    months: Annotated[int, Field(ge=1, le=12, description="Rental length in months (1-12)")],
    size: Annotated[
        Literal["full", "3/4", "1/2", "1/4"] | None,
        Field(description="Size, for violin, viola, cello and guitar only"),
    ] = None,
) -> dict:
    student = _student(student_id)
    if instrument in SIZED and size is None:
        raise ToolError(f"A {instrument} rental needs a size: full, 3/4, 1/2 or 1/4.")
    if instrument not in SIZED and size is not None:
        raise ToolError(f"{instrument} rentals do not come in sizes; leave size out.")
    rental_id = _next("MSR")
    rental = {
        "rental_id": rental_id,
        "student_id": student_id,
        "instrument": instrument,
        "size": size,
        "tag": f"MSI-{int(rental_id[4:]) - 1800:04d}",
        "months": months,
        "start_date": "2026-12-01",
        "monthly_fee": RENTAL_MONTHLY[instrument],
    }
    RENTALS.append(rental)
    if size is None:
        del rental["size"]
    return {**rental, "student": student["name"], "pickup": "front office, weekdays 10:00-18:00", "status": "reserved"}


@server.tool(
    description=(
        "Sign a student up to perform at a recital. Recitals: 2026-12-12 (Winter Recital, "
        "Saturday), 2026-12-13 (Winter Recital, Sunday), 2027-03-14 (Spring Recital), "
        "2027-05-23 (Year-End Showcase)."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def sign_up_recital(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    recital_date: Annotated[str, Field(pattern=DATE, description="Date of the recital, YYYY-MM-DD")],
    piece: Annotated[str, Field(min_length=1, max_length=200, description="Title of the piece to perform")],
    performance_minutes: Annotated[float, Field(gt=0, le=20, description="Length of the performance in minutes")],
) -> dict:
    student = _student(student_id)
    if recital_date not in RECITALS:
        raise ToolError(
            f"There is no recital on {recital_date}. Recitals: "
            + "; ".join(f"{d} {n}" for d, n in RECITALS.items())
        )
    signup = {
        "signup_id": _next("MSC"),
        "student_id": student_id,
        "recital_date": recital_date,
        "piece": piece,
        "performance_minutes": performance_minutes,
        "status": "confirmed",
    }
    RECITAL_SIGNUPS.append(signup)
    return {**signup, "student": student["name"], "recital": RECITALS[recital_date]}


@server.tool(
    description=(
        "Pay tuition toward a student's balance, charged to the card or the bank account the "
        "family keeps on file. Paying more than the balance leaves a credit. Returns the "
        "receipt and the new balance."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def pay_tuition(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    amount: Annotated[float, Field(gt=0, le=10000, description="Amount in US dollars")],
    method: Annotated[Literal["card_on_file", "bank_account"], Field(description="What to charge")],
) -> dict:
    student = _student(student_id)
    student["balance"] = round(student["balance"] - amount, 2)
    payment = {
        "payment_id": _next("MSP"),
        "student_id": student_id,
        "amount": amount,
        "method": method,
        "date": "2026-12-01",
        "status": "posted",
    }
    PAYMENTS.append(payment)
    return {**payment, "student": student["name"], "new_balance": student["balance"]}


@server.tool(
    description=(
        "Withdraw a student from the school: ends every lesson, ensemble membership and "
        "rental and closes the account. Registrar's office only."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def withdraw_student(
    student_id: Annotated[str, Field(pattern=STUDENT_ID, description="Student number, e.g. MSS-4102")],
    reason: Annotated[str, Field(min_length=1, max_length=300, description="Reason for leaving")],
) -> dict:
    student = _student(student_id)
    WITHDRAWALS.append({"student_id": student_id, "reason": reason})
    LESSONS[:] = [l for l in LESSONS if l["student_id"] != student_id]
    MEMBERSHIPS[:] = [m for m in MEMBERSHIPS if m["student_id"] != student_id]
    return {"student_id": student_id, "student": student["name"], "status": "withdrawn"}


if __name__ == "__main__":
    run(server)
