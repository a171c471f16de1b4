"""Coyote Mesa Golf Club pro shop and tee-time desk: a blind evaluation MCP
server (round 20) for the `golf-desk` skill. Deterministic, in-memory state
seeded with a few members, tee times, lessons, repair tickets and lockers."""

from datetime import date as _date
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-golf_desk")

MemberId = Annotated[
    str,
    Field(pattern=r"^MBR-[0-9]{4}$", description="Member number, e.g. MBR-4417"),
]
BookingId = Annotated[
    str,
    Field(pattern=r"^TT-[0-9]{5}$", description="Tee-time booking id, e.g. TT-30418"),
]
ProId = Annotated[
    str,
    Field(
        pattern=r"^PRO-[0-9]{2}$",
        description="Teaching pro: PRO-01 Dana Whitfield (head professional), "
        "PRO-02 Marcus Bell, PRO-03 Priya Raman (also the club fitter)",
    ),
]
Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD")]
Clock = Annotated[
    str,
    Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Time of day, 24-hour HH:MM"),
]
Course = Literal["saguaro", "palo_verde"]

PROS = {
    "PRO-01": "Dana Whitfield",
    "PRO-02": "Marcus Bell",
    "PRO-03": "Priya Raman",
}

COURSES = {
    "saguaro": "Saguaro (18-hole championship course)",
    "palo_verde": "Palo Verde (9-hole par-3 course)",
}

LOCKER_PRICES = {"month": 45.00, "season": 240.00, "year": 320.00}

MEMBERS = {
    "MBR-4417": {"name": "Glenn Hartley", "membership": "full golf", "balance": 312.40},
    "MBR-2208": {"name": "Susan Okafor", "membership": "full golf", "balance": 88.00},
    "MBR-3051": {"name": "Ray Castillo", "membership": "full golf", "balance": 145.75},
    "MBR-1186": {"name": "Linda Vo", "membership": "full golf", "balance": 61.20},
    "MBR-5620": {"name": "Tom Brandt", "membership": "full golf", "balance": 0.00},
    "MBR-3392": {"name": "Nadia Feld", "membership": "weekday", "balance": 27.50},
    "MBR-7004": {"name": "Walt Ebersole", "membership": "senior", "balance": 190.10},
    "MBR-6145": {"name": "Carmen Ruiz", "membership": "full golf", "balance": 406.35},
    "MBR-2750": {"name": "Derek Olsen", "membership": "junior executive", "balance": 35.00},
}
CHARGE_LIMIT = 25000.00

TEE_TIMES = {
    "TT-30418": {"member_id": "MBR-4417", "date": "2026-12-05", "time": "08:10", "course": "saguaro", "players": 4},
    "TT-30422": {"member_id": "MBR-2208", "date": "2026-12-10", "time": "07:40", "course": "saguaro", "players": 2},
    "TT-30431": {"member_id": "MBR-3051", "date": "2026-12-06", "time": "09:20", "course": "palo_verde", "players": 3},
    "TT-30437": {"member_id": "MBR-1186", "date": "2026-12-04", "time": "13:00", "course": "saguaro", "players": 4},
    "TT-30440": {"member_id": "MBR-5620", "date": "2026-12-12", "time": "08:00", "course": "saguaro", "players": 4},
    "TT-30446": {"member_id": "MBR-3392", "date": "2026-12-08", "time": "10:30", "course": "saguaro", "players": 2},
    "TT-30451": {"member_id": "MBR-7004", "date": "2026-12-05", "time": "11:40", "course": "saguaro", "players": 3},
    "TT-30455": {"member_id": "MBR-6145", "date": "2026-12-05", "time": "07:20", "course": "saguaro", "players": 4},
    "TT-30459": {"member_id": "MBR-2750", "date": "2026-12-06", "time": "08:50", "course": "saguaro", "players": 2},
    "TT-30463": {"member_id": "MBR-3392", "date": "2026-12-03", "time": "12:10", "course": "palo_verde", "players": 2},
}
for _t in TEE_TIMES.values():
    _t["status"] = "booked"

LESSONS = {
    "LSN-2198": {"member_id": "MBR-2208", "pro_id": "PRO-01", "date": "2026-11-28", "time": "09:00",
                 "lesson_type": "full_swing", "status": "completed"},
    "LSN-2204": {"member_id": "MBR-4417", "pro_id": "PRO-03", "date": "2026-12-05", "time": "15:00",
                 "lesson_type": "club_fitting", "status": "confirmed"},
}

REPAIRS = {
    "RPR-7709": {"member_id": "MBR-4417", "service": "reshaft", "clubs": 1, "grip_size": None,
                 "received": "2026-11-25", "status": "at the workbench, ready 2026-12-04"},
    "RPR-7715": {"member_id": "MBR-1186", "service": "regrip", "clubs": 1, "grip_size": "midsize",
                 "received": "2026-11-27", "status": "ready for pickup"},
}

LOCKERS = {
    "LKR-M112": {"member_id": "MBR-4417", "locker_room": "men", "term": "season", "status": "active"},
    "LKR-W031": {"member_id": "MBR-2208", "locker_room": "women", "term": "year", "status": "active"},
}

CHARGES = {
    "CHG-81002": {"member_id": "MBR-4417", "date": "2026-11-22", "category": "balls", "amount": 54.99},
    "CHG-81017": {"member_id": "MBR-3051", "date": "2026-11-26", "category": "apparel", "amount": 85.00},
    "CHG-81020": {"member_id": "MBR-2750", "date": "2026-11-29", "category": "range", "amount": 35.00},
    "CHG-81024": {"member_id": "MBR-6145", "date": "2026-11-30", "category": "clubs", "amount": 379.00},
}

COUNTERS = {"TT": 30470, "LSN": 2210, "RPR": 7720, "LKR-M": 140, "LKR-W": 40, "CHG": 81030}


def _next(kind: str) -> int:
    COUNTERS[kind] += 1
    return COUNTERS[kind]


def _member(member_id: str) -> dict:
    member = MEMBERS.get(member_id)
    if member is None:
        raise ToolError(f"No member {member_id}. Member numbers look like MBR-4417; check the member's card.")
    return member


def _booking(booking_id: str) -> dict:
    booking = TEE_TIMES.get(booking_id)
    if booking is None:
        raise ToolError(f"No tee time {booking_id} on the tee sheet. Booking ids look like TT-30418.")
    return booking


def _check_day(value: str) -> None:
    try:
        _date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{value} is not a calendar date (YYYY-MM-DD).") from None


def _check_tee_clock(value: str) -> None:
    if not ("06:30" <= value <= "16:30"):
        raise ToolError(f"The first tee time is 06:30 and the last is 16:30; {value} is outside the tee sheet.")


@server.tool(
    description="Look up a member's account: name, membership, shop account balance and recent charges, "
    "upcoming tee times, lessons, club repair tickets and lockers.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_member_account(member_id: MemberId) -> dict:
    member = _member(member_id)
    return {
        "member_id": member_id,
        "name": member["name"],
        "membership": member["membership"],
        "shop_account": {
            "balance": round(member["balance"], 2),
            "charge_limit": CHARGE_LIMIT,
            "charges": [dict(id=k, **v) for k, v in CHARGES.items() if v["member_id"] == member_id],
        },
        "tee_times": [dict(booking_id=k, **v) for k, v in TEE_TIMES.items() if v["member_id"] == member_id],
        "lessons": [
            dict(lesson_id=k, pro=PROS[v["pro_id"]], **v) for k, v in LESSONS.items() if v["member_id"] == member_id
        ],
        "repairs": [dict(ticket_id=k, **v) for k, v in REPAIRS.items() if v["member_id"] == member_id],
        "lockers": [dict(locker_id=k, **v) for k, v in LOCKERS.items() if v["member_id"] == member_id],
    }


@server.tool(
    description="Book a tee time for a member and their group (1-4 players, guests included) on one of "
    "the club's courses.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_tee_time(
    member_id: MemberId,
    date: Day,
    time: Clock,
    players: Annotated[int, Field(ge=1, le=4, description="Golfers in the group, the member included")],
    course: Annotated[
        Course,
        Field(description="saguaro: the 18-hole championship course; palo_verde: the 9-hole par-3 course"),
    ],
) -> dict:
    member = _member(member_id)
    _check_day(date)
    _check_tee_clock(time)
    booking_id = f"TT-{_next('TT')}"
    TEE_TIMES[booking_id] = {
        "member_id": member_id,
        "date": date,
        "time": time,
        "course": course,
        "players": players,
        "status": "booked",
    }
    return {
        "booking_id": booking_id,
        "member": member["name"],
        "course": COURSES[course],
        "date": date,
        "time": time,
        "players": players,
        "status": "booked",
    }


@server.tool(
    description="Move an existing tee time to a new date and time (same course, same group).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def move_tee_time(booking_id: BookingId, new_date: Day, new_time: Clock) -> dict:
    booking = _booking(booking_id)
    if booking["status"] == "cancelled":
        raise ToolError(f"Tee time {booking_id} was cancelled; book a new one instead.")
    _check_day(new_date)
    _check_tee_clock(new_time)
    previous = {"date": booking["date"], "time": booking["time"]}
    booking["date"], booking["time"] = new_date, new_time
    return {
        "booking_id": booking_id,
        "course": COURSES[booking["course"]],
        "from": previous,
        "to": {"date": new_date, "time": new_time},
        "players": booking["players"],
        "status": "booked",
    }


@server.tool(
    description="Cancel a tee time and release the slot on the tee sheet.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def cancel_tee_time(booking_id: BookingId) -> dict:
    booking = _booking(booking_id)
    already = booking["status"] == "cancelled"
    booking["status"] = "cancelled"
    return {
        "booking_id": booking_id,
        "date": booking["date"],
        "time": booking["time"],
        "course": COURSES[booking["course"]],
        "status": "cancelled",
        "note": "it was already cancelled" if already else "slot released",
    }


@server.tool(
    description="Book a one-hour lesson with one of the club's teaching pros.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_lesson(
    member_id: MemberId,
    pro_id: ProId,
    date: Day,
    time: Clock,
    lesson_type: Annotated[
        Literal["full_swing", "short_game", "putting", "playing_lesson", "club_fitting"],
        Field(description="full_swing, short_game (chipping, pitching, bunkers), putting, "
              "playing_lesson (on the course), club_fitting"),
    ],
) -> dict:
    member = _member(member_id)
    if pro_id not in PROS:
        raise ToolError(f"No pro {pro_id}. The pros are " + ", ".join(f"{k} {v}" for k, v in PROS.items()) + ".")
    _check_day(date)
    if not ("07:00" <= time <= "17:00"):
        raise ToolError(f"Lessons start between 07:00 and 17:00; {time} is outside teaching hours.")
    lesson_id = f"LSN-{_next('LSN')}"
    LESSONS[lesson_id] = {
        "member_id": member_id,
        "pro_id": pro_id,
        "date": date,
        "time": time,
        "lesson_type": lesson_type,
        "status": "confirmed",
    }
    return {
        "lesson_id": lesson_id,
        "member": member["name"],
        "pro": PROS[pro_id],
        "date": date,
        "time": time,
        "lesson_type": lesson_type,
        "status": "confirmed",
    }


@server.tool(
    description="Open a club repair ticket in the shop's workbench: regrips, reshafting, loft and lie "
    "adjustment, or another repair.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def open_repair_ticket(
    member_id: MemberId,
    service: Annotated[
        Literal["regrip", "reshaft", "loft_lie", "general_repair"],
        Field(description="regrip: new grips; reshaft: new shafts; loft_lie: loft and lie check and bending; "
              "general_repair: loose heads, ferrules, rattles and anything else"),
    ],
    clubs: Annotated[int, Field(ge=1, le=14, description="How many clubs")],
    grip_size: Annotated[
        Literal["undersize", "standard", "midsize", "jumbo"] | None,
        Field(description="Regrips only, when the member asks for a size; otherwise omitted"),
    ] = None,
) -> dict:
    member = _member(member_id)
    if grip_size is not None and service != "regrip":
        raise ToolError("A grip size only applies to a regrip.")
    ticket_id = f"RPR-{_next('RPR')}"
    REPAIRS[ticket_id] = {
        "member_id": member_id,
        "service": service,
        "clubs": clubs,
        "grip_size": grip_size,
        "received": "2026-12-01",
        "status": "waiting for drop-off",
    }
    return {
        "ticket_id": ticket_id,
        "member": member["name"],
        "service": service,
        "clubs": clubs,
        "grip_size": grip_size,
        "status": "waiting for drop-off",
        "turnaround": "3 working days after drop-off",
    }


@server.tool(
    description="Rent a locker in the men's or women's locker room for a month, the winter season "
    "(October-May) or a full year; the fee goes on the member's shop account.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def rent_locker(
    member_id: MemberId,
    locker_room: Literal["men", "women"],
    term: Annotated[
        Literal["month", "season", "year"],
        Field(description="month; season: through the end of May; year: twelve months"),
    ],
) -> dict:
    member = _member(member_id)
    prefix = "LKR-M" if locker_room == "men" else "LKR-W"
    locker_id = f"{prefix}{_next(prefix):03d}"
    LOCKERS[locker_id] = {"member_id": member_id, "locker_room": locker_room, "term": term, "status": "active"}
    fee = LOCKER_PRICES[term]
    member["balance"] = round(member["balance"] + fee, 2)
    return {
        "locker_id": locker_id,
        "member": member["name"],
        "locker_room": locker_room,
        "term": term,
        "fee_charged": fee,
        "shop_balance": member["balance"],
    }


@server.tool(
    description="Charge a pro shop purchase to a member's shop account.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def charge_shop_account(
    member_id: MemberId,
    amount: Annotated[float, Field(gt=0, le=10000, description="Amount in US dollars")],
    category: Annotated[
        Literal["balls", "clubs", "apparel", "shoes", "accessories", "range"],
        Field(description="balls; clubs (any club, set or putter); apparel; shoes; accessories (gloves, bags, "
              "headcovers, rangefinders); range (range balls and fees)"),
    ],
) -> dict:
    member = _member(member_id)
    if member["balance"] + amount > CHARGE_LIMIT:
        raise ToolError(
            f"This would take {member['name']}'s account over the ${CHARGE_LIMIT:,.2f} charge limit "
            f"(balance ${member['balance']:,.2f})."
        )
    charge_id = f"CHG-{_next('CHG')}"
    CHARGES[charge_id] = {"member_id": member_id, "date": "2026-12-01", "category": category, "amount": amount}
    member["balance"] = round(member["balance"] + amount, 2)
    return {
        "charge_id": charge_id,
        "member": member["name"],
        "amount": amount,
        "category": category,
        "shop_balance": member["balance"],
    }


if __name__ == "__main__":
    run(server)
