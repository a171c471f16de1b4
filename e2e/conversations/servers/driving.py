"""Blind evaluation server (round 22): a driving school front desk.

Learner drivers (pupils) and their parents book and move lessons with the
school's instructors, book road tests at the local test centres, buy blocks
of lessons and check how many prepaid lessons are left. Deterministic,
in-memory, seeded with a handful of pupils, lessons and one road test.
"""

from datetime import date as _date, datetime, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-driving")

TODAY = _date(2026, 12, 1)

PupilId = Annotated[str, Field(pattern=r"^PUP-[0-9]{4}$", description="Pupil number, e.g. PUP-2231")]
LessonId = Annotated[str, Field(pattern=r"^LSN-[0-9]{4}$", description="Lesson booking number, e.g. LSN-5521")]
InstructorId = Annotated[
    Literal["INS-01", "INS-02", "INS-03", "INS-04"],
    Field(
        description=(
            "Instructor: INS-01 Dana Whitfield (automatic), INS-02 Marco Bellini (manual), "
            "INS-03 Priya Shah (manual and automatic), INS-04 Owen Gallagher (manual)"
        )
    ),
]
Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD")]
Clock = Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Start time, 24-hour HH:MM")]
Transmission = Literal["manual", "automatic"]
TestCentre = Literal["northfield", "riverside", "lakeshore"]

INSTRUCTORS = {
    "INS-01": {"name": "Dana Whitfield", "teaches": ["automatic"]},
    "INS-02": {"name": "Marco Bellini", "teaches": ["manual"]},
    "INS-03": {"name": "Priya Shah", "teaches": ["manual", "automatic"]},
    "INS-04": {"name": "Owen Gallagher", "teaches": ["manual"]},
}

TEST_CENTRES = {
    "northfield": "Northfield Road Test Centre, 40 Northfield Ave",
    "riverside": "Riverside Road Test Centre, 212 Riverside Dr",
    "lakeshore": "Lakeshore Road Test Centre, 9 Lakeshore Blvd",
}

PUPILS = {
    "PUP-1987": {"name": "Aisha Khan", "guardian": None, "transmission": "manual", "lessons_left": 3},
    "PUP-2231": {"name": "Ella Okafor", "guardian": "Grace Okafor", "transmission": "manual", "lessons_left": 6},
    "PUP-2318": {"name": "Jayden Pratt", "guardian": "Mike Pratt", "transmission": "automatic", "lessons_left": 2},
    "PUP-2381": {"name": "Lily Tran", "guardian": "Hoa Tran", "transmission": "manual", "lessons_left": 9},
    "PUP-2405": {"name": "Sofia Reyes", "guardian": None, "transmission": "manual", "lessons_left": 0},
    "PUP-2417": {"name": "Tom Becker", "guardian": "Anke Becker", "transmission": "automatic", "lessons_left": 14},
}

LESSONS = {
    "LSN-5521": {"pupil_id": "PUP-2231", "instructor_id": "INS-02", "date": "2026-12-03", "start_time": "16:00", "length_minutes": 60, "status": "booked"},
    "LSN-5534": {"pupil_id": "PUP-2318", "instructor_id": "INS-01", "date": "2026-12-02", "start_time": "15:30", "length_minutes": 60, "status": "booked"},
    "LSN-5540": {"pupil_id": "PUP-2417", "instructor_id": "INS-01", "date": "2026-12-05", "start_time": "10:00", "length_minutes": 90, "status": "booked"},
    "LSN-5547": {"pupil_id": "PUP-1987", "instructor_id": "INS-03", "date": "2026-12-07", "start_time": "17:00", "length_minutes": 60, "status": "booked"},
    "LSN-5553": {"pupil_id": "PUP-2381", "instructor_id": "INS-04", "date": "2026-12-04", "start_time": "08:00", "length_minutes": 60, "status": "booked"},
    "LSN-5558": {"pupil_id": "PUP-2231", "instructor_id": "INS-02", "date": "2026-12-10", "start_time": "16:00", "length_minutes": 60, "status": "booked"},
    "LSN-5561": {"pupil_id": "PUP-2417", "instructor_id": "INS-03", "date": "2026-12-08", "start_time": "18:00", "length_minutes": 60, "status": "booked"},
    "LSN-5566": {"pupil_id": "PUP-2405", "instructor_id": "INS-04", "date": "2026-12-09", "start_time": "12:00", "length_minutes": 60, "status": "booked"},
    "LSN-5502": {"pupil_id": "PUP-2381", "instructor_id": "INS-04", "date": "2026-11-27", "start_time": "09:00", "length_minutes": 60, "status": "completed"},
}

ROAD_TESTS = {
    "RT-0882": {"pupil_id": "PUP-1987", "test_centre": "lakeshore", "date": "2026-12-15", "time": "09:20", "transmission": "manual", "status": "booked"},
}

PURCHASES = {
    "PKG-3307": {"pupil_id": "PUP-2318", "lessons": 5, "total": 275.00, "date": "2026-11-24"},
    "PKG-3291": {"pupil_id": "PUP-2231", "lessons": 10, "total": 520.00, "date": "2026-10-02"},
}

REFUNDS: dict[str, dict] = {}

_counters = {"lesson": 5600, "test": 900, "package": 3400, "refund": 100}


def _next(kind: str, prefix: str, width: int) -> str:
    _counters[kind] += 1
    return f"{prefix}-{_counters[kind]:0{width}d}"


def _pupil(pupil_id: str) -> dict:
    pupil = PUPILS.get(pupil_id)
    if pupil is None:
        raise ToolError(f"No pupil with number {pupil_id}. Pupil numbers look like PUP-2231.")
    return pupil


def _day(value: str, what: str) -> _date:
    try:
        day = _date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value} is not a real date (YYYY-MM-DD).") from None
    if day < TODAY:
        raise ToolError(f"{what} {value} is in the past; today is {TODAY.isoformat()}.")
    if day.weekday() == 6:
        raise ToolError(f"The school is closed on Sundays ({value}).")
    return day


def _minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _check_lesson_slot(instructor_id: str, day: str, start: str, length: int, ignore: str | None = None) -> None:
    begin = _minutes(start)
    if begin < 7 * 60 or begin + length > 20 * 60:
        raise ToolError("Lessons run between 07:00 and 20:00.")
    for lesson_id, lesson in LESSONS.items():
        if lesson_id == ignore or lesson["status"] != "booked":
            continue
        if lesson["instructor_id"] != instructor_id or lesson["date"] != day:
            continue
        other = _minutes(lesson["start_time"])
        if begin < other + lesson["length_minutes"] and other < begin + length:
            name = INSTRUCTORS[instructor_id]["name"]
            raise ToolError(f"{name} already has a lesson at {lesson['start_time']} on {day}.")


def _price(lessons: int) -> float:
    per = 58.0 if lessons < 5 else 55.0 if lessons < 10 else 52.0 if lessons < 20 else 50.0
    return round(per * lessons, 2)


@server.tool(
    description=(
        "Look up a pupil's account by pupil number: name, parent or guardian, transmission they learn in, "
        "prepaid lessons left, upcoming and past lessons, road tests and package purchases."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_pupil(pupil_id: PupilId) -> dict:
    pupil = _pupil(pupil_id)
    lessons = [
        {"lesson_id": k, **{f: v for f, v in l.items() if f != "pupil_id"}, "instructor": INSTRUCTORS[l["instructor_id"]]["name"]}
        for k, l in LESSONS.items()
        if l["pupil_id"] == pupil_id
    ]
    tests = [{"test_id": k, **{f: v for f, v in t.items() if f != "pupil_id"}} for k, t in ROAD_TESTS.items() if t["pupil_id"] == pupil_id]
    packages = [{"package_id": k, **{f: v for f, v in p.items() if f != "pupil_id"}} for k, p in PURCHASES.items() if p["pupil_id"] == pupil_id]
    return {
        "pupil_id": pupil_id,
        **pupil,
        "lessons": lessons,
        "road_tests": tests,
        "packages": packages,
    }


@server.tool(
    description="Free one-hour lesson start times for an instructor on a given day (lessons run 07:00-20:00, Monday to Saturday).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_instructor_availability(instructor_id: InstructorId, date: Day) -> dict:
    day = _day(date, "Date")
    free = []
    for hour in range(7, 20):
        start = f"{hour:02d}:00"
        try:
            _check_lesson_slot(instructor_id, day.isoformat(), start, 60)
        except ToolError:
            continue
        free.append(start)
    return {
        "instructor_id": instructor_id,
        "instructor": INSTRUCTORS[instructor_id]["name"],
        "teaches": INSTRUCTORS[instructor_id]["teaches"],
        "date": day.isoformat(),
        "free_start_times": free,
    }


@server.tool(
    description="Book a driving lesson for a pupil with an instructor. Uses one prepaid lesson if the pupil has any left.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_lesson(
    pupil_id: PupilId,
    instructor_id: InstructorId,
    date: Day,
    start_time: Clock,
    length_minutes: Annotated[Literal[60, 90, 120] | None, Field(description="Lesson length in minutes; a standard lesson is 60")] = None,
) -> dict:
    pupil = _pupil(pupil_id)
    day = _day(date, "Date")
    length = length_minutes or 60
    _check_lesson_slot(instructor_id, day.isoformat(), start_time, length)
    lesson_id = _next("lesson", "LSN", 4)
    LESSONS[lesson_id] = {
        "pupil_id": pupil_id,
        "instructor_id": instructor_id,
        "date": day.isoformat(),
        "start_time": start_time,
        "length_minutes": length,
        "status": "booked",
    }
    prepaid = pupil["lessons_left"] > 0
    if prepaid:
        pupil["lessons_left"] -= 1
    return {
        "lesson_id": lesson_id,
        "pupil": pupil["name"],
        "instructor": INSTRUCTORS[instructor_id]["name"],
        "date": day.isoformat(),
        "start_time": start_time,
        "length_minutes": length,
        "paid_from_package": prepaid,
        "amount_due": 0.0 if prepaid else _price(1),
        "lessons_left": pupil["lessons_left"],
    }


@server.tool(
    description="Move a booked lesson to a new day and start time, with the same instructor.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def move_lesson(lesson_id: LessonId, new_date: Day, new_start_time: Clock) -> dict:
    lesson = LESSONS.get(lesson_id)
    if lesson is None:
        raise ToolError(f"No lesson with booking number {lesson_id}.")
    if lesson["status"] != "booked":
        raise ToolError(f"Lesson {lesson_id} is {lesson['status']} and cannot be moved.")
    day = _day(new_date, "New date")
    _check_lesson_slot(lesson["instructor_id"], day.isoformat(), new_start_time, lesson["length_minutes"], ignore=lesson_id)
    old = {"date": lesson["date"], "start_time": lesson["start_time"]}
    lesson["date"] = day.isoformat()
    lesson["start_time"] = new_start_time
    return {
        "lesson_id": lesson_id,
        "pupil": PUPILS[lesson["pupil_id"]]["name"],
        "instructor": INSTRUCTORS[lesson["instructor_id"]]["name"],
        "from": old,
        "to": {"date": lesson["date"], "start_time": lesson["start_time"]},
    }


@server.tool(
    description=(
        "Cancel a booked lesson. With at least 24 hours' notice the prepaid lesson goes back on the pupil's "
        "account; with less notice it is forfeited."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_lesson(lesson_id: LessonId) -> dict:
    lesson = LESSONS.get(lesson_id)
    if lesson is None:
        raise ToolError(f"No lesson with booking number {lesson_id}.")
    if lesson["status"] != "booked":
        raise ToolError(f"Lesson {lesson_id} is already {lesson['status']}.")
    starts = datetime.fromisoformat(f"{lesson['date']}T{lesson['start_time']}")
    late = starts - datetime(2026, 12, 1, 9, 30) < timedelta(hours=24)
    lesson["status"] = "cancelled"
    pupil = PUPILS[lesson["pupil_id"]]
    if not late:
        pupil["lessons_left"] += 1
    return {
        "lesson_id": lesson_id,
        "status": "cancelled",
        "late_cancellation": late,
        "lesson_returned_to_account": not late,
        "lessons_left": pupil["lessons_left"],
    }


@server.tool(
    description="Book a pupil's road test (practical driving test) at one of the test centres.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_road_test(
    pupil_id: PupilId,
    test_centre: Annotated[TestCentre, Field(description="northfield, riverside or lakeshore")],
    date: Day,
    time: Clock,
    transmission: Annotated[Transmission, Field(description="Car the test is taken in: manual or automatic")],
) -> dict:
    pupil = _pupil(pupil_id)
    day = _day(date, "Test date")
    test_id = _next("test", "RT", 4)
    ROAD_TESTS[test_id] = {
        "pupil_id": pupil_id,
        "test_centre": test_centre,
        "date": day.isoformat(),
        "time": time,
        "transmission": transmission,
        "status": "booked",
    }
    return {
        "test_id": test_id,
        "pupil": pupil["name"],
        "centre": TEST_CENTRES[test_centre],
        "date": day.isoformat(),
        "time": time,
        "transmission": transmission,
        "school_car_fee": 95.00,
    }


@server.tool(
    description=(
        "Sell a pupil a block of prepaid lessons, charged to the card on file. Price per lesson: "
        "1-4 lessons $58, 5-9 $55, 10-19 $52, 20 or more $50."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def buy_lessons(
    pupil_id: PupilId,
    lessons: Annotated[int, Field(ge=1, le=40, description="Number of lessons in the block")],
) -> dict:
    pupil = _pupil(pupil_id)
    package_id = _next("package", "PKG", 4)
    total = _price(lessons)
    PURCHASES[package_id] = {"pupil_id": pupil_id, "lessons": lessons, "total": total, "date": TODAY.isoformat()}
    pupil["lessons_left"] += lessons
    return {
        "package_id": package_id,
        "pupil": pupil["name"],
        "lessons": lessons,
        "total": total,
        "lessons_left": pupil["lessons_left"],
    }


@server.tool(
    description="Refund money to a pupil's card for unused prepaid lessons (office manager only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def refund_payment(
    pupil_id: PupilId,
    amount: Annotated[float, Field(gt=0, description="Amount to refund in dollars")],
    reason: Annotated[str, Field(min_length=1, description="Why the refund is given")],
) -> dict:
    pupil = _pupil(pupil_id)
    refund_id = _next("refund", "RFD", 4)
    REFUNDS[refund_id] = {"pupil_id": pupil_id, "amount": amount, "reason": reason}
    return {"refund_id": refund_id, "pupil": pupil["name"], "amount": amount}


if __name__ == "__main__":
    run(server)
