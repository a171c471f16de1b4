"""MCP server of the ferry-desk blind evaluation skill (round 21): a coastal
ferry company's ticket and vehicle-booking desk (Brennhaven mainland terminal,
Skellow and Tarvey islands). Deterministic, in-memory, seeded with a handful of
bookings; today is pinned by the test run, so nothing here reads the clock."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-ferry_desk")

Port = Literal["BRH", "SKL", "TRV"]
Vehicle = Literal["car", "van", "motorcycle", "campervan"]
CabinType = Literal["inside_twin", "inside_quad", "outside_twin"]
PassRoute = Literal["BRH-SKL", "BRH-TRV", "SKL-TRV"]
PassType = Literal["monthly", "quarterly", "annual"]

BookingRef = Annotated[
    str,
    Field(pattern=r"^FRY-[0-9]{4}$", description="Booking reference, e.g. FRY-2041"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD"),
]
DepartureTime = Annotated[
    str,
    Field(
        pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
        description="Scheduled departure time, 24-hour HH:MM (e.g. 14:00)",
    ),
]

PORTS = {
    "BRH": "Brennhaven (mainland terminal)",
    "SKL": "Skellow Island",
    "TRV": "Tarvey Island",
}

# Daily timetable: (from, to) -> departure times.
TIMETABLE = {
    ("BRH", "SKL"): ["07:00", "11:00", "14:00", "18:30"],
    ("SKL", "BRH"): ["08:30", "12:30", "16:30", "20:00"],
    ("BRH", "TRV"): ["09:00", "22:30"],
    ("TRV", "BRH"): ["10:00", "23:00"],
    ("SKL", "TRV"): ["10:30", "16:15"],
    ("TRV", "SKL"): ["13:00", "18:45"],
}

CROSSING_MINUTES = {"BRH-SKL": 70, "BRH-TRV": 300, "SKL-TRV": 120}

# Fares in GBP: foot passenger, and a car space; other vehicles scale the car fare.
FOOT_FARE = {"BRH-SKL": 14.0, "BRH-TRV": 38.0, "SKL-TRV": 22.0}
CAR_FARE = {"BRH-SKL": 45.0, "BRH-TRV": 110.0, "SKL-TRV": 60.0}
VEHICLE_FACTOR = {"car": 1.0, "van": 1.5, "motorcycle": 0.5, "campervan": 2.0}
CABIN_FARE = {"inside_twin": 60.0, "inside_quad": 85.0, "outside_twin": 95.0}
PASS_FARE = {
    "BRH-SKL": {"monthly": 180.0, "quarterly": 495.0, "annual": 1680.0},
    "BRH-TRV": {"monthly": 420.0, "quarterly": 1150.0, "annual": 3980.0},
    "SKL-TRV": {"monthly": 250.0, "quarterly": 690.0, "annual": 2340.0},
}

# Vehicle deck: lane metres per sailing; a car takes 5, a van 7, a motorcycle 2,
# a campervan 9. Passenger capacity per sailing.
DECK_METRES = 400
VEHICLE_METRES = {"car": 5, "van": 7, "motorcycle": 2, "campervan": 9}
PASSENGER_CAPACITY = 350


def route_key(a: str, b: str) -> str:
    order = ["BRH", "SKL", "TRV"]
    x, y = sorted([a, b], key=order.index)
    return f"{x}-{y}"


def fare(frm: str, to: str, passengers: int, vehicle: str | None) -> float:
    r = route_key(frm, to)
    total = FOOT_FARE[r] * passengers
    if vehicle:
        total += CAR_FARE[r] * VEHICLE_FACTOR[vehicle]
    return round(total, 2)


def _seed(ref, frm, to, date, time, pax, vehicle, holder, booked_on, status="confirmed",
          cabin=None, refund=None):
    total = fare(frm, to, pax, vehicle) + (CABIN_FARE[cabin] if cabin else 0.0)
    return {
        "booking_ref": ref,
        "from_port": frm,
        "to_port": to,
        "date": date,
        "departure_time": time,
        "passengers": pax,
        "vehicle": vehicle,
        "cabin": cabin,
        "lead_passenger": holder,
        "booked_on": booked_on,
        "status": status,
        "total_paid_gbp": round(total, 2),
        "refund_gbp": refund,
    }


BOOKINGS: dict[str, dict] = {
    b["booking_ref"]: b
    for b in [
        _seed("FRY-2041", "BRH", "SKL", "2026-12-04", "11:00", 2, "car", "Aoife Brannigan", "2026-11-12"),
        _seed("FRY-2057", "BRH", "TRV", "2026-12-10", "22:30", 1, None, "Tom Pryce", "2026-11-15"),
        _seed("FRY-2063", "SKL", "BRH", "2026-12-02", "08:30", 4, "van", "Marta Kowal", "2026-11-16"),
        _seed("FRY-2078", "TRV", "BRH", "2026-12-12", "23:00", 2, "campervan", "Gareth Lund", "2026-11-18"),
        _seed("FRY-2090", "BRH", "SKL", "2026-12-18", "14:00", 3, "car", "Niamh Doyle", "2026-11-30"),
        _seed("FRY-2104", "SKL", "TRV", "2026-12-05", "10:30", 1, "motorcycle", "Ravi Menon", "2026-11-20"),
        _seed("FRY-2115", "BRH", "TRV", "2026-12-20", "09:00", 2, "car", "Helen Achterberg", "2026-11-29"),
        _seed("FRY-2126", "TRV", "SKL", "2026-12-08", "13:00", 2, None, "Ben Okafor", "2026-11-21",
              status="cancelled", refund=34.0),
        _seed("FRY-2133", "BRH", "SKL", "2026-12-21", "18:30", 5, "van", "Claire Whitlow", "2026-11-22"),
        _seed("FRY-2147", "SKL", "BRH", "2026-12-27", "16:30", 2, "car", "Declan Ferris", "2026-11-23"),
        _seed("FRY-2152", "BRH", "TRV", "2027-01-03", "22:30", 4, "car", "Priya Sandhu", "2026-11-24"),
        _seed("FRY-2168", "BRH", "SKL", "2026-12-14", "07:00", 1, None, "Sam Whitcombe", "2026-11-25"),
        _seed("FRY-2181", "BRH", "SKL", "2026-12-23", "18:30", 3, "car", "Fiona McBride", "2026-11-26"),
    ]
}
# The refund of FRY-2126 was paid back to the card on 2026-11-23.
BOOKINGS["FRY-2126"]["refund_status"] = "paid to card on 2026-11-23"

# Seeded load per sailing (from, to, date, time) -> (passengers, deck metres used).
SEEDED_LOAD = {
    ("BRH", "SKL", "2026-12-24", "14:00"): (290, 400),
    ("SKL", "BRH", "2026-12-02", "16:30"): (120, 330),
}

PASSES: dict[str, dict] = {
    "SSN-40711": {
        "pass_id": "SSN-40711", "holder_name": "Ruth Calloway", "route": "BRH-SKL",
        "pass_type": "annual", "start_date": "2026-03-01", "end_date": "2027-02-28",
    },
}

_next_booking = [3001]
_next_pass = [40801]


def _booking(ref: str) -> dict:
    b = BOOKINGS.get(ref)
    if b is None:
        raise ToolError(f"No booking with reference {ref}. References look like FRY-2041.")
    return b


def _check_sailing(frm: str, to: str, date: str, time: str) -> None:
    if frm == to:
        raise ToolError("The departure and arrival ports must differ.")
    times = TIMETABLE[(frm, to)]
    if time not in times:
        raise ToolError(
            f"There is no {time} sailing from {PORTS[frm]} to {PORTS[to]}; "
            f"sailings leave at {', '.join(times)}."
        )
    if date < "2026-12-01" or date > "2027-12-31":
        raise ToolError(f"Bookings are open from 2026-12-01 to 2027-12-31, not {date}.")


def _load(frm: str, to: str, date: str, time: str, skip: str | None = None) -> tuple[int, int]:
    pax, metres = SEEDED_LOAD.get((frm, to, date, time), (0, 0))
    for b in BOOKINGS.values():
        if b["booking_ref"] == skip or b["status"] != "confirmed":
            continue
        if (b["from_port"], b["to_port"], b["date"], b["departure_time"]) == (frm, to, date, time):
            pax += b["passengers"]
            if b["vehicle"]:
                metres += VEHICLE_METRES[b["vehicle"]]
    return pax, metres


def _check_space(frm, to, date, time, pax, vehicle, skip=None) -> None:
    used_pax, used_m = _load(frm, to, date, time, skip)
    if used_pax + pax > PASSENGER_CAPACITY:
        raise ToolError(f"The {time} sailing on {date} has only {PASSENGER_CAPACITY - used_pax} passenger places left.")
    if vehicle and used_m + VEHICLE_METRES[vehicle] > DECK_METRES:
        raise ToolError(f"The vehicle deck of the {time} sailing on {date} is full.")


@server.tool(
    description="List the sailings between two ports on one day, with departure and arrival "
    "times, passenger places and vehicle-deck space left, whether cabins are offered and the fares. "
    "Ports: BRH = Brennhaven (mainland), SKL = Skellow Island, TRV = Tarvey Island.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def search_sailings(from_port: Port, to_port: Port, date: IsoDate) -> dict:
    if from_port == to_port:
        raise ToolError("The departure and arrival ports must differ.")
    r = route_key(from_port, to_port)
    sailings = []
    for t in TIMETABLE[(from_port, to_port)]:
        pax, metres = _load(from_port, to_port, date, t)
        h, m = map(int, t.split(":"))
        arr = h * 60 + m + CROSSING_MINUTES[r]
        sailings.append({
            "departure_time": t,
            "arrival_time": f"{(arr // 60) % 24:02d}:{arr % 60:02d}",
            "passenger_places_left": PASSENGER_CAPACITY - pax,
            "car_spaces_left": (DECK_METRES - metres) // VEHICLE_METRES["car"],
            "cabins": r == "BRH-TRV",
        })
    return {
        "from": PORTS[from_port], "to": PORTS[to_port], "date": date,
        "sailings": sailings,
        "fares_gbp": {"foot_passenger": FOOT_FARE[r], "car": CAR_FARE[r],
                      "van": CAR_FARE[r] * 1.5, "motorcycle": CAR_FARE[r] * 0.5,
                      "campervan": CAR_FARE[r] * 2.0},
    }


@server.tool(
    description="Show one booking by its reference: crossing, passengers, vehicle, cabin, status "
    "(confirmed or cancelled), what was paid and any refund.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_booking(booking_ref: BookingRef) -> dict:
    return dict(_booking(booking_ref))


@server.tool(
    description="Book a crossing: passengers on one scheduled sailing, with a vehicle space when "
    "a vehicle travels (leave vehicle out for foot passengers). Returns the new booking reference and fare.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_crossing(
    from_port: Port,
    to_port: Port,
    date: IsoDate,
    departure_time: DepartureTime,
    passengers: Annotated[int, Field(ge=1, le=99, description="Number of passengers travelling")],
    vehicle: Annotated[Vehicle | None, Field(description="Vehicle taking a deck space, if any")] = None,
) -> dict:
    _check_sailing(from_port, to_port, date, departure_time)
    _check_space(from_port, to_port, date, departure_time, passengers, vehicle)
    ref = f"FRY-{_next_booking[0]}"
    _next_booking[0] += 1
    b = _seed(ref, from_port, to_port, date, departure_time, passengers, vehicle, None, "2026-12-01")
    BOOKINGS[ref] = b
    return {"booked": True, **b}


@server.tool(
    description="Reserve a cabin on a booking (Brennhaven–Tarvey sailings only). A booking holds "
    "one cabin: reserving again replaces the cabin it had, and the fare difference is charged or refunded.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def reserve_cabin(booking_ref: BookingRef, cabin_type: CabinType) -> dict:
    b = _booking(booking_ref)
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {booking_ref} is {b['status']}; a cabin cannot be added.")
    if route_key(b["from_port"], b["to_port"]) != "BRH-TRV":
        raise ToolError("Cabins are only offered on the Brennhaven–Tarvey sailings.")
    old = b["cabin"]
    diff = CABIN_FARE[cabin_type] - (CABIN_FARE[old] if old else 0.0)
    b["cabin"] = cabin_type
    b["total_paid_gbp"] = round(b["total_paid_gbp"] + diff, 2)
    return {"booking_ref": booking_ref, "cabin": cabin_type, "replaced": old,
            "charged_gbp": round(diff, 2), "total_paid_gbp": b["total_paid_gbp"]}


@server.tool(
    description="Move a booking to another sailing on the same route: a new date and departure "
    "time. Passengers and vehicle stay as booked; a change fee of £8 applies.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def change_booking(booking_ref: BookingRef, new_date: IsoDate, new_departure_time: DepartureTime) -> dict:
    b = _booking(booking_ref)
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {booking_ref} is {b['status']} and cannot be changed.")
    _check_sailing(b["from_port"], b["to_port"], new_date, new_departure_time)
    _check_space(b["from_port"], b["to_port"], new_date, new_departure_time,
                 b["passengers"], b["vehicle"], skip=booking_ref)
    old = {"date": b["date"], "departure_time": b["departure_time"]}
    b["date"], b["departure_time"] = new_date, new_departure_time
    b["total_paid_gbp"] = round(b["total_paid_gbp"] + 8.0, 2)
    return {"booking_ref": booking_ref, "was": old,
            "now": {"date": new_date, "departure_time": new_departure_time},
            "change_fee_gbp": 8.0}


@server.tool(
    description="Cancel a booking and refund it to the card it was paid with: in full less a £10 "
    "fee up to 48 hours before departure, half the fare after that.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_booking(booking_ref: BookingRef) -> dict:
    b = _booking(booking_ref)
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {booking_ref} is already {b['status']}.")
    # Today is 2026-12-01 09:30; a departure on or before 2026-12-03 09:30 is within 48 hours.
    late = (b["date"], b["departure_time"]) <= ("2026-12-03", "09:30")
    refund = round(b["total_paid_gbp"] / 2 if late else max(b["total_paid_gbp"] - 10.0, 0.0), 2)
    b["status"] = "cancelled"
    b["refund_gbp"] = refund
    b["refund_status"] = "refund issued to card, 3-5 working days"
    return {"booking_ref": booking_ref, "status": "cancelled", "refund_gbp": refund}


@server.tool(
    description="Sell a season pass for one named holder on one route (both directions, foot "
    "passenger): monthly, quarterly (three months) or annual, from a start date.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def buy_season_pass(
    holder_name: Annotated[str, Field(min_length=2, max_length=80, description="Full name of the pass holder")],
    route: PassRoute,
    pass_type: PassType,
    start_date: IsoDate,
) -> dict:
    if start_date < "2026-12-01":
        raise ToolError("A season pass cannot start in the past.")
    pid = f"SSN-{_next_pass[0]}"
    _next_pass[0] += 1
    p = {"pass_id": pid, "holder_name": holder_name, "route": route, "pass_type": pass_type,
         "start_date": start_date, "price_gbp": PASS_FARE[route][pass_type]}
    PASSES[pid] = p
    return p


@server.tool(
    description="Issue free travel on a booking (a complimentary crossing, fare refunded in full). "
    "Staff only.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def issue_free_travel(
    booking_ref: BookingRef,
    reason: Annotated[str, Field(min_length=3, max_length=200)],
) -> dict:
    b = _booking(booking_ref)
    b["refund_gbp"] = b["total_paid_gbp"]
    b["complimentary"] = reason
    return {"booking_ref": booking_ref, "complimentary": True, "refund_gbp": b["refund_gbp"]}


if __name__ == "__main__":
    run(server)
