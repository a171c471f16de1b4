"""Visitor services desk of the Halvorsen Museum of Art & Industry: timed-entry
tickets, special-exhibition slots, guided group and school tours, and
memberships. Deterministic, in-memory, seeded with a handful of records.

Ids: ticket orders TKT-30418, group tours TOUR-5521, membership cards
MC-204817, exhibitions EXH-214, guides GD-07."""

from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-museum")

TODAY = date(2026, 12, 1)
CLOSED_DAYS = {date(2026, 12, 25), date(2027, 1, 1)}

DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
TIME = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
BOOKING_ID = r"^(TKT-[0-9]{5}|TOUR-[0-9]{4})$"
MEMBERSHIP_ID = r"^MC-[0-9]{6}$"
EXHIBITION_ID = r"^EXH-[0-9]{3}$"
GUIDE_ID = r"^GD-[0-9]{2}$"

ENTRY_SLOTS = [f"{h:02d}:{m:02d}" for h in range(10, 17) for m in (0, 30)]  # 10:00 .. 16:30
TOUR_STARTS = [f"{h:02d}:{m:02d}" for h in range(10, 15) for m in (0, 30)]  # 10:00 .. 14:30
GENERAL_SLOT_CAPACITY = 120
EXHIBITION_SLOT_CAPACITY = 30

TICKET_PRICES = {"adult": 24.0, "senior": 19.0, "student": 15.0, "child": 12.0, "member": 0.0}
EXHIBITION_SURCHARGE = 8.0
TOUR_PRICES = {"school": 6.0, "adult": 18.0, "senior": 14.0, "university": 10.0}
MEMBERSHIP_PRICES = {"individual": 75.0, "dual": 120.0, "family": 160.0, "patron": 500.0}

EXHIBITIONS = {
    "EXH-214": {
        "title": "Hokusai and the Floating World: Japanese Woodblock Prints",
        "opens": date(2026, 11, 14),
        "closes": date(2027, 2, 28),
        "gallery": "East Wing, level 2",
    },
    "EXH-219": {
        "title": "Steam & Steel: The Age of Ironworks",
        "opens": date(2026, 10, 2),
        "closes": date(2027, 1, 10),
        "gallery": "Industry Hall",
    },
    "EXH-231": {
        "title": "Blue Gold: The Story of Lapis Lazuli",
        "opens": date(2027, 2, 12),
        "closes": date(2027, 6, 6),
        "gallery": "West Wing, level 1",
    },
}

GUIDES = {
    "GD-03": {"name": "Tomasz Wren", "languages": ["english", "polish"], "specialty": "European painting"},
    "GD-07": {"name": "Marguerite Okafor", "languages": ["english", "french"], "specialty": "school programs"},
    "GD-11": {"name": "Dev Raman", "languages": ["english", "hindi"], "specialty": "science and industry"},
    "GD-14": {"name": "Inés Calderón", "languages": ["english", "spanish"], "specialty": "Asian art"},
    "GD-18": {"name": "Harriet Lowe", "languages": ["english"], "specialty": "highlights and accessibility tours"},
}

TICKETS = {
    "TKT-30418": {"name": "Priya Natarajan", "visit_date": "2026-12-05", "entry_time": "11:00",
                  "quantity": 2, "ticket_type": "adult", "exhibition_id": None, "status": "confirmed"},
    "TKT-30422": {"name": "Walter Brandt", "visit_date": "2026-12-12", "entry_time": "14:00",
                  "quantity": 3, "ticket_type": "senior", "exhibition_id": "EXH-214", "status": "confirmed"},
    "TKT-30437": {"name": "Sofia Marchetti", "visit_date": "2026-12-06", "entry_time": "13:00",
                  "quantity": 4, "ticket_type": "student", "exhibition_id": None, "status": "confirmed"},
    "TKT-30441": {"name": "Owen Hughes", "visit_date": "2026-12-19", "entry_time": "10:30",
                  "quantity": 5, "ticket_type": "child", "exhibition_id": None, "status": "confirmed"},
    "TKT-30455": {"name": "Aaron Feld", "visit_date": "2026-12-08", "entry_time": "15:00",
                  "quantity": 2, "ticket_type": "adult", "exhibition_id": None, "status": "cancelled",
                  "cancelled_on": "2026-11-26", "refund": 48.0},
    "TKT-30460": {"name": "Grace Liu", "visit_date": "2026-12-13", "entry_time": "12:00",
                  "quantity": 2, "ticket_type": "member", "exhibition_id": "EXH-219", "status": "confirmed"},
    "TKT-30466": {"name": "Mateo Ruiz", "visit_date": "2026-12-11", "entry_time": "10:00",
                  "quantity": 3, "ticket_type": "adult", "exhibition_id": None, "status": "confirmed"},
}

TOURS = {
    "TOUR-5521": {"group": "Lincoln Elementary, grade 3", "tour_date": "2026-12-10", "start_time": "10:00",
                  "group_size": 28, "group_type": "school", "guide_id": "GD-07", "language": "english",
                  "status": "confirmed"},
    "TOUR-5530": {"group": "Maple Grove Seniors Club", "tour_date": "2026-12-17", "start_time": "13:30",
                  "group_size": 18, "group_type": "senior", "guide_id": "GD-03", "language": "english",
                  "status": "confirmed"},
    "TOUR-5534": {"group": "Westbrook College, HIST 210", "tour_date": "2026-12-09", "start_time": "11:00",
                  "group_size": 24, "group_type": "university", "guide_id": "GD-11", "language": "english",
                  "status": "confirmed"},
}

MEMBERSHIPS = {
    "MC-204817": {"holder": "Dana Whitcombe", "tier": "dual", "expires": date(2026, 12, 31),
                  "last_renewed": "2025-12-20"},
    "MC-198302": {"holder": "Eleanor Fisk", "tier": "family", "expires": date(2026, 10, 31),
                  "last_renewed": "2025-10-14"},
    "MC-210555": {"holder": "Chidi and Ada Okoro", "tier": "family", "expires": date(2027, 11, 30),
                  "last_renewed": "2026-11-28"},
    "MC-187640": {"holder": "Ruth Abernathy", "tier": "individual", "expires": date(2027, 1, 15),
                  "last_renewed": "2026-01-09"},
    "MC-215092": {"holder": "Jonas Berg", "tier": "patron", "expires": date(2026, 12, 15),
                  "last_renewed": "2025-12-02"},
    "MC-193377": {"holder": "Lena Park", "tier": "individual", "expires": date(2026, 11, 30),
                  "last_renewed": "2025-11-21"},
}

_next_ticket = [30500]
_next_tour = [5600]


def _parse_date(value: str, what: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a real date (use YYYY-MM-DD).")
    if day < TODAY:
        raise ToolError(f"{what} {value} is in the past; today is {TODAY.isoformat()}.")
    if day.weekday() == 0:
        raise ToolError(f"The museum is closed on Mondays; {value} is a Monday.")
    if day in CLOSED_DAYS:
        raise ToolError(f"The museum is closed on {value}.")
    return day


def _exhibition(exhibition_id: str, day: date | None = None) -> dict:
    exhibition = EXHIBITIONS.get(exhibition_id)
    if exhibition is None:
        raise ToolError(f"No exhibition {exhibition_id}. Current ids: {', '.join(sorted(EXHIBITIONS))}.")
    if day is not None and not (exhibition["opens"] <= day <= exhibition["closes"]):
        raise ToolError(
            f"{exhibition['title']} ({exhibition_id}) runs {exhibition['opens'].isoformat()} to "
            f"{exhibition['closes'].isoformat()}; it is not open on {day.isoformat()}."
        )
    return exhibition


def _sold(visit_date: str, entry_time: str, exhibition_id: str | None) -> int:
    sold = 0
    for t in TICKETS.values():
        if t["status"] != "confirmed" or t["visit_date"] != visit_date or t["entry_time"] != entry_time:
            continue
        if exhibition_id is None or t["exhibition_id"] == exhibition_id:
            sold += t["quantity"]
    # a steady, deterministic walk-up load so slots are not all identical
    h, m = (int(x) for x in entry_time.split(":"))
    base = ((h * 7 + m + int(visit_date[-2:]) * 3) % 17) if exhibition_id is None else ((h + m // 30 + int(visit_date[-2:])) % 9)
    return sold + base


def _ticket_view(ticket_id: str, t: dict) -> dict:
    view = {"booking_id": ticket_id, "kind": "timed-entry tickets", **t}
    if t.get("exhibition_id"):
        view["exhibition"] = EXHIBITIONS[t["exhibition_id"]]["title"]
    view["total"] = _ticket_total(t["quantity"], t["ticket_type"], t.get("exhibition_id"))
    return view


def _ticket_total(quantity: int, ticket_type: str, exhibition_id: str | None) -> float:
    each = TICKET_PRICES[ticket_type]
    if exhibition_id and ticket_type != "member":
        each += EXHIBITION_SURCHARGE
    return round(each * quantity, 2)


def _tour_view(tour_id: str, t: dict) -> dict:
    guide = GUIDES[t["guide_id"]]
    return {"booking_id": tour_id, "kind": "guided group tour", **t, "guide": guide["name"],
            "total": round(TOUR_PRICES[t["group_type"]] * t["group_size"], 2)}


def _membership_view(membership_id: str, m: dict) -> dict:
    status = "active" if m["expires"] >= TODAY else "expired"
    return {"membership_id": membership_id, "holder": m["holder"], "tier": m["tier"], "status": status,
            "expires": m["expires"].isoformat(), "last_renewed": m["last_renewed"],
            "annual_fee": MEMBERSHIP_PRICES[m["tier"]]}


@server.tool(
    description="Open timed-entry slots on a day, with the places left in each. Without an exhibition "
    "it is general admission (permanent galleries); with one it is that special exhibition's slots.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_availability(
    visit_date: Annotated[str, Field(pattern=DATE, description="Day of the visit, YYYY-MM-DD")],
    exhibition_id: Annotated[str | None, Field(pattern=EXHIBITION_ID, description="Special exhibition, e.g. EXH-214")] = None,
) -> dict:
    day = _parse_date(visit_date, "Visit date")
    capacity = GENERAL_SLOT_CAPACITY
    result: dict = {"visit_date": visit_date, "weekday": day.strftime("%A")}
    if exhibition_id is not None:
        exhibition = _exhibition(exhibition_id, day)
        capacity = EXHIBITION_SLOT_CAPACITY
        result["exhibition_id"] = exhibition_id
        result["exhibition"] = exhibition["title"]
    else:
        result["exhibitions_open"] = [
            {"exhibition_id": k, "title": v["title"]}
            for k, v in sorted(EXHIBITIONS.items())
            if v["opens"] <= day <= v["closes"]
        ]
    result["slots"] = [
        {"entry_time": slot, "places_left": max(0, capacity - _sold(visit_date, slot, exhibition_id))}
        for slot in ENTRY_SLOTS
    ]
    return result


@server.tool(
    description="Book timed-entry tickets of one ticket type for one day and entry time, optionally "
    "with a special-exhibition slot. Returns the new order (TKT-#####) and its total.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_tickets(
    visit_date: Annotated[str, Field(pattern=DATE, description="Day of the visit, YYYY-MM-DD")],
    entry_time: Annotated[str, Field(pattern=TIME, description="Entry slot, HH:MM, every half hour 10:00-16:30")],
    quantity: Annotated[int, Field(ge=1, le=20, description="Number of tickets (1-20)")],
    ticket_type: Annotated[
        Literal["adult", "senior", "student", "child", "member"],
        Field(description="adult 18-64, senior 65+, student with college ID, child 4-17, member (card holder)"),
    ],
    exhibition_id: Annotated[str | None, Field(pattern=EXHIBITION_ID, description="Special exhibition, e.g. EXH-214")] = None,
) -> dict:
    day = _parse_date(visit_date, "Visit date")
    if entry_time not in ENTRY_SLOTS:
        raise ToolError(f"No entry slot at {entry_time}; slots run every half hour from 10:00 to 16:30.")
    capacity = GENERAL_SLOT_CAPACITY
    if exhibition_id is not None:
        _exhibition(exhibition_id, day)
        capacity = EXHIBITION_SLOT_CAPACITY
    left = capacity - _sold(visit_date, entry_time, exhibition_id)
    if quantity > left:
        raise ToolError(f"Only {max(left, 0)} places left at {entry_time} on {visit_date}.")
    ticket_id = f"TKT-{_next_ticket[0]}"
    _next_ticket[0] += 1
    TICKETS[ticket_id] = {"name": "walk-in desk booking", "visit_date": visit_date, "entry_time": entry_time,
                          "quantity": quantity, "ticket_type": ticket_type, "exhibition_id": exhibition_id,
                          "status": "confirmed"}
    return _ticket_view(ticket_id, TICKETS[ticket_id])


@server.tool(
    description="Book a guided group tour (10-150 people). A guide is assigned when none is named. "
    "Returns the new tour booking (TOUR-####) and its total.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_group_tour(
    tour_date: Annotated[str, Field(pattern=DATE, description="Day of the tour, YYYY-MM-DD")],
    start_time: Annotated[str, Field(pattern=TIME, description="Start, HH:MM, on the half hour 10:00-14:30")],
    group_size: Annotated[int, Field(ge=10, le=150, description="People in the group, 10-150")],
    group_type: Annotated[
        Literal["school", "adult", "senior", "university"],
        Field(description="school (K-12 class), adult (company, club, private group), senior (65+ group), university"),
    ],
    guide_id: Annotated[str | None, Field(pattern=GUIDE_ID, description="Requested guide, e.g. GD-07")] = None,
    language: Annotated[
        Literal["english", "spanish", "french", "polish", "hindi"] | None,
        Field(description="Tour language; english when not given"),
    ] = None,
) -> dict:
    _parse_date(tour_date, "Tour date")
    if start_time not in TOUR_STARTS:
        raise ToolError(f"Tours start on the half hour from 10:00 to 14:30, not at {start_time}.")
    busy = {t["guide_id"] for t in TOURS.values()
            if t["status"] == "confirmed" and t["tour_date"] == tour_date and t["start_time"] == start_time}
    lang = language or "english"
    if guide_id is not None:
        if guide_id not in GUIDES:
            raise ToolError(f"No guide {guide_id}. Guides: {', '.join(sorted(GUIDES))}.")
        if guide_id in busy:
            raise ToolError(f"{GUIDES[guide_id]['name']} already leads a tour at {start_time} on {tour_date}.")
        if lang not in GUIDES[guide_id]["languages"]:
            raise ToolError(f"{GUIDES[guide_id]['name']} does not guide in {lang}.")
    else:
        free = [g for g in sorted(GUIDES) if g not in busy and lang in GUIDES[g]["languages"]]
        if not free:
            raise ToolError(f"No guide free for a {lang} tour at {start_time} on {tour_date}.")
        guide_id = free[0]
    tour_id = f"TOUR-{_next_tour[0]}"
    _next_tour[0] += 1
    TOURS[tour_id] = {"group": "desk booking", "tour_date": tour_date, "start_time": start_time,
                      "group_size": group_size, "group_type": group_type, "guide_id": guide_id,
                      "language": lang, "status": "confirmed"}
    return _tour_view(tour_id, TOURS[tour_id])


@server.tool(
    description="Look up a ticket order (TKT-#####) or a group tour booking (TOUR-####): date, time, "
    "party, guide, status, and any cancellation and refund.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_booking(
    booking_id: Annotated[str, Field(pattern=BOOKING_ID, description="TKT-##### or TOUR-####")],
) -> dict:
    if booking_id in TICKETS:
        return _ticket_view(booking_id, TICKETS[booking_id])
    if booking_id in TOURS:
        return _tour_view(booking_id, TOURS[booking_id])
    raise ToolError(f"No booking {booking_id}.")


@server.tool(
    description="Cancel a ticket order or a group tour booking and refund it in full to the original payment.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False),
)
def cancel_booking(
    booking_id: Annotated[str, Field(pattern=BOOKING_ID, description="TKT-##### or TOUR-####")],
) -> dict:
    if booking_id in TICKETS:
        record, view = TICKETS[booking_id], _ticket_view
        refund = _ticket_total(record["quantity"], record["ticket_type"], record.get("exhibition_id"))
    elif booking_id in TOURS:
        record, view = TOURS[booking_id], _tour_view
        refund = round(TOUR_PRICES[record["group_type"]] * record["group_size"], 2)
    else:
        raise ToolError(f"No booking {booking_id}.")
    if record["status"] == "cancelled":
        raise ToolError(f"{booking_id} was already cancelled on {record.get('cancelled_on', 'an earlier date')}.")
    record["status"] = "cancelled"
    record["cancelled_on"] = TODAY.isoformat()
    record["refund"] = refund
    return view(booking_id, record)


@server.tool(
    description="Look up a membership card (MC-######): holder, tier, status and expiry date.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_membership(
    membership_id: Annotated[str, Field(pattern=MEMBERSHIP_ID, description="Card number, MC-######")],
) -> dict:
    m = MEMBERSHIPS.get(membership_id)
    if m is None:
        raise ToolError(f"No membership {membership_id}.")
    return _membership_view(membership_id, m)


@server.tool(
    description="Renew a membership for one year, at its current tier or at a new one. The year runs "
    "from the current expiry, or from today when the membership has lapsed.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def renew_membership(
    membership_id: Annotated[str, Field(pattern=MEMBERSHIP_ID, description="Card number, MC-######")],
    new_tier: Annotated[
        Literal["individual", "dual", "family", "patron"] | None,
        Field(description="Only when the member changes tier; omit to renew at the current tier"),
    ] = None,
) -> dict:
    m = MEMBERSHIPS.get(membership_id)
    if m is None:
        raise ToolError(f"No membership {membership_id}.")
    if m["expires"] > TODAY + timedelta(days=90):
        raise ToolError(
            f"{membership_id} is already paid up to {m['expires'].isoformat()}; "
            "renewals open 90 days before expiry."
        )
    start = max(m["expires"], TODAY)
    m["expires"] = date(start.year + 1, start.month, start.day)
    if new_tier is not None:
        m["tier"] = new_tier
    m["last_renewed"] = TODAY.isoformat()
    view = _membership_view(membership_id, m)
    view["charged"] = MEMBERSHIP_PRICES[m["tier"]]
    return view


@server.tool(
    description="Issue complimentary (free) tickets. Development Office use only.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def issue_comp_tickets(
    visit_date: Annotated[str, Field(pattern=DATE, description="Day of the visit, YYYY-MM-DD")],
    quantity: Annotated[int, Field(ge=1, le=10, description="Number of free tickets")],
    reason: Annotated[str, Field(description="Why they are complimentary")],
) -> dict:
    _parse_date(visit_date, "Visit date")
    ticket_id = f"TKT-{_next_ticket[0]}"
    _next_ticket[0] += 1
    TICKETS[ticket_id] = {"name": f"complimentary: {reason}", "visit_date": visit_date, "entry_time": "10:00",
                          "quantity": quantity, "ticket_type": "adult", "exhibition_id": None,
                          "status": "confirmed"}
    return {"booking_id": ticket_id, "complimentary": True, "quantity": quantity, "visit_date": visit_date}


if __name__ == "__main__":
    run(server)
