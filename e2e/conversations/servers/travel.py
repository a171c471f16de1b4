"""Blind evaluation server (round 15): the corporate travel desk of a
consulting firm. Staff book flights and hotels against their business trips,
change or cancel bookings, look trips up and claim per-diem allowances.

Deterministic, in-memory state seeded with a handful of trips and bookings.
"Today" for the desk is 2026-12-01 (America/Chicago).
"""

from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-travel")

TODAY = date(2026, 12, 1)

TripId = Annotated[
    str,
    Field(pattern=r"^TRIP-[0-9]{4}$", description="Trip number, e.g. TRIP-4821"),
]
BookingId = Annotated[
    str,
    Field(pattern=r"^TBK-[0-9]{5}$", description="Booking reference, e.g. TBK-20931"),
]
Airport = Annotated[
    str,
    Field(pattern=r"^[A-Z]{3}$", description="IATA airport code, e.g. ORD for Chicago O'Hare"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="A date as YYYY-MM-DD"),
]

AIRPORTS = {
    "ORD": "Chicago O'Hare",
    "MDW": "Chicago Midway",
    "ATL": "Atlanta",
    "AUS": "Austin",
    "BOS": "Boston Logan",
    "CLE": "Cleveland",
    "DEN": "Denver",
    "DFW": "Dallas/Fort Worth",
    "DTW": "Detroit",
    "EWR": "Newark",
    "JFK": "New York JFK",
    "LGA": "New York LaGuardia",
    "MSP": "Minneapolis-St Paul",
    "PHL": "Philadelphia",
    "PIT": "Pittsburgh",
    "SEA": "Seattle-Tacoma",
    "SFO": "San Francisco",
    "YYZ": "Toronto Pearson",
    "LHR": "London Heathrow",
    "LGW": "London Gatwick",
    "FRA": "Frankfurt",
    "MUC": "Munich",
    "ZRH": "Zurich",
    "AMS": "Amsterdam",
    "CDG": "Paris Charles de Gaulle",
}

PREFERRED_HOTELS = {
    "Atlanta": "Hyatt Regency Atlanta",
    "Austin": "Hilton Austin",
    "Boston": "Boston Park Plaza",
    "Cleveland": "Hilton Cleveland Downtown",
    "Denver": "The Curtis Denver",
    "Detroit": "Westin Book Cadillac",
    "Frankfurt": "Steigenberger Frankfurter Hof",
    "London": "Marriott London County Hall",
    "Minneapolis": "Hotel Ivy",
    "Munich": "Hotel Bayerischer Hof",
    "New York": "Kimpton Hotel Eventi",
    "Pittsburgh": "Omni William Penn",
    "Seattle": "Grand Hyatt Seattle",
    "Toronto": "Fairmont Royal York",
    "Zurich": "Hotel Schweizerhof Zurich",
}

PER_DIEM_RATES = {  # firm's daily meals & incidentals allowance, USD
    "Atlanta": 79, "Austin": 74, "Boston": 92, "Cleveland": 69, "Denver": 79,
    "Detroit": 74, "Frankfurt": 110, "London": 125, "Minneapolis": 79,
    "Munich": 105, "New York": 92, "Pittsburgh": 74, "Seattle": 92,
    "Toronto": 80, "Zurich": 140,
}


def _trip(trip_id, traveller, city, client, start, end):
    return {
        "trip_id": trip_id,
        "traveller": traveller,
        "destination": city,
        "client": client,
        "start_date": start,
        "end_date": end,
        "bookings": [],
        "per_diem_claims": [],
    }


TRIPS = {
    t["trip_id"]: t
    for t in [
        _trip("TRIP-4821", "Priya Raman", "Frankfurt", "Halvorsen AG", "2026-12-07", "2026-12-11"),
        _trip("TRIP-5507", "Marcus Webb", "New York", "Brightwater Capital", "2026-12-14", "2026-12-16"),
        _trip("TRIP-5630", "Nora Fischer", "Seattle", "Cascade Utilities", "2026-12-10", "2026-12-12"),
        _trip("TRIP-5844", "Aisha Bello", "Atlanta", "Peachtree Logistics", "2026-12-15", "2026-12-17"),
        _trip("TRIP-6124", "Priya Raman", "London", "Northgate Insurance", "2027-01-11", "2027-01-15"),
        _trip("TRIP-6230", "Sam Ortiz", "Boston", "Keller Labs", "2026-12-08", "2026-12-09"),
        _trip("TRIP-6301", "Jonas Meyer", "Munich", "Alpenwerk GmbH", "2027-01-18", "2027-01-21"),
        _trip("TRIP-6415", "Omar Haddad", "Detroit", "Lakeshore Motors", "2026-12-03", "2026-12-03"),
        _trip("TRIP-6550", "Elena Rossi", "Zurich", "Helvetia Re", "2027-01-25", "2027-01-28"),
        _trip("TRIP-6620", "Sam Ortiz", "Pittsburgh", "Three Rivers Steel", "2026-12-10", "2026-12-11"),
        _trip("TRIP-4410", "Jonas Meyer", "Minneapolis", "Arden Foods", "2026-12-02", "2026-12-03"),
        _trip("TRIP-7015", "Elena Rossi", "Denver", "Summit Mining", "2026-12-15", "2026-12-17"),
        _trip("TRIP-7102", "Hannah Cole", "Boston", "Keller Labs", "2026-12-21", "2026-12-22"),
        _trip("TRIP-2750", "Ravi Shah", "Seattle", "Cascade Utilities", "2026-10-05", "2026-10-25"),
        _trip("TRIP-2988", "Leo Brandt", "Toronto", "Maple Ridge Bank", "2026-11-02", "2026-11-06"),
        _trip("TRIP-3044", "Grace Liu", "Cleveland", "Erie Health", "2026-11-09", "2026-11-11"),
        _trip("TRIP-3102", "Aisha Bello", "Atlanta", "Peachtree Logistics", "2026-11-16", "2026-11-27"),
        _trip("TRIP-3215", "Omar Haddad", "Detroit", "Lakeshore Motors", "2026-11-19", "2026-11-20"),
        _trip("TRIP-3260", "Grace Liu", "Austin", "Lone Star Energy", "2026-11-24", "2026-11-25"),
        _trip("TRIP-3390", "Dana Kim", "Denver", "Corvus Health", "2026-11-16", "2026-11-20"),
    ]
}

BOOKINGS: dict[str, dict] = {}


def _flight(booking_id, trip_id, origin, destination, day, cabin, status="confirmed"):
    BOOKINGS[booking_id] = {
        "booking_id": booking_id,
        "trip_id": trip_id,
        "kind": "flight",
        "origin": origin,
        "destination": destination,
        "departure_date": day,
        "cabin": cabin,
        "status": status,
    }
    TRIPS[trip_id]["bookings"].append(booking_id)


def _hotel(booking_id, trip_id, check_in, nights, status="confirmed"):
    city = TRIPS[trip_id]["destination"]
    BOOKINGS[booking_id] = {
        "booking_id": booking_id,
        "trip_id": trip_id,
        "kind": "hotel",
        "hotel": PREFERRED_HOTELS[city],
        "city": city,
        "check_in": check_in,
        "nights": nights,
        "check_out": (date.fromisoformat(check_in) + timedelta(days=nights)).isoformat(),
        "status": status,
    }
    TRIPS[trip_id]["bookings"].append(booking_id)


_flight("TBK-20931", "TRIP-4821", "ORD", "FRA", "2026-12-07", "business")
_hotel("TBK-20932", "TRIP-4821", "2026-12-08", 3)
_flight("TBK-21040", "TRIP-5507", "ORD", "LGA", "2026-12-14", "economy")
_flight("TBK-21041", "TRIP-5507", "LGA", "ORD", "2026-12-16", "economy")
_hotel("TBK-21102", "TRIP-5507", "2026-12-14", 2, status="cancelled")
_flight("TBK-21215", "TRIP-5630", "ORD", "SEA", "2026-12-10", "economy")
_hotel("TBK-21216", "TRIP-5630", "2026-12-10", 2)
_flight("TBK-21388", "TRIP-5844", "ORD", "ATL", "2026-12-15", "economy")
_hotel("TBK-21389", "TRIP-5844", "2026-12-15", 2)
_flight("TBK-22050", "TRIP-6415", "ORD", "DTW", "2026-12-03", "economy")
_flight("TBK-22107", "TRIP-7102", "ORD", "BOS", "2026-12-21", "economy")
_flight("TBK-22210", "TRIP-6301", "ORD", "MUC", "2027-01-17", "business")
_flight("TBK-19877", "TRIP-3390", "ORD", "DEN", "2026-11-16", "economy", status="completed")
_hotel("TBK-19878", "TRIP-3390", "2026-11-16", 4, status="completed")
BOOKINGS["TBK-21102"]["cancelled_on"] = "2026-11-24"

CLAIMS: dict[str, dict] = {
    "PDM-0712": {
        "claim_id": "PDM-0712",
        "trip_id": "TRIP-3390",
        "days": 5,
        "amount": 325.0,
        "currency": "USD",
        "status": "paid",
        "submitted_on": "2026-11-23",
        "paid_on": "2026-11-27",
    }
}
TRIPS["TRIP-3390"]["per_diem_claims"].append("PDM-0712")

_next = {"booking": 23001, "claim": 801}


def _get_trip(trip_id: str) -> dict:
    trip = TRIPS.get(trip_id)
    if trip is None:
        raise ToolError(f"Unknown trip {trip_id}: no trip with that number is on file.")
    return trip


def _get_booking(booking_id: str) -> dict:
    booking = BOOKINGS.get(booking_id)
    if booking is None:
        raise ToolError(f"Unknown booking {booking_id}: no booking with that reference exists.")
    return booking


def _parse_date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a valid date (YYYY-MM-DD).") from None


def _future(value: str, what: str) -> date:
    day = _parse_date(value, what)
    if day < TODAY:
        raise ToolError(f"{what} {value} is in the past; today is {TODAY.isoformat()}.")
    return day


def _airport(code: str) -> str:
    if code not in AIRPORTS:
        raise ToolError(f"Unknown airport code {code}: the desk does not book flights there.")
    return AIRPORTS[code]


def _trip_view(trip: dict) -> dict:
    view = {k: v for k, v in trip.items() if k not in ("bookings", "per_diem_claims")}
    view["bookings"] = [BOOKINGS[b] for b in trip["bookings"]]
    view["per_diem_claims"] = [CLAIMS[c] for c in trip["per_diem_claims"]]
    view["per_diem_daily_rate"] = PER_DIEM_RATES.get(trip["destination"])
    return view


@server.tool(
    description="Look up a business trip by its trip number: traveller, destination, client, dates, "
    "every flight and hotel booked on it with their status, and any per-diem claims.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_trip(trip_id: TripId) -> dict:
    return _trip_view(_get_trip(trip_id))


@server.tool(
    description="Look up one flight or hotel booking by its reference (TBK-…): what it is, its dates and "
    "its status (confirmed, cancelled, completed).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_booking(booking_id: BookingId) -> dict:
    return _get_booking(booking_id)


@server.tool(
    description="Book a one-way flight on a business trip. Airports are IATA codes (ORD for Chicago O'Hare).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_flight(
    trip_id: TripId,
    origin: Airport,
    destination: Airport,
    departure_date: IsoDate,
    cabin: Literal["economy", "premium_economy", "business"],
) -> dict:
    trip = _get_trip(trip_id)
    _airport(origin)
    _airport(destination)
    if origin == destination:
        raise ToolError("Origin and destination are the same airport.")
    _future(departure_date, "Departure date")
    booking_id = f"TBK-{_next['booking']}"
    _next["booking"] += 1
    _flight(booking_id, trip["trip_id"], origin, destination, departure_date, cabin)
    return {**BOOKINGS[booking_id], "from": AIRPORTS[origin], "to": AIRPORTS[destination]}


@server.tool(
    description="Book the firm's preferred hotel in the trip's destination city for a number of nights.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def book_hotel(
    trip_id: TripId,
    check_in: IsoDate,
    nights: Annotated[int, Field(ge=1, le=30, description="Number of nights")],
) -> dict:
    trip = _get_trip(trip_id)
    _future(check_in, "Check-in date")
    if trip["destination"] not in PREFERRED_HOTELS:
        raise ToolError(f"No preferred hotel in {trip['destination']}.")
    booking_id = f"TBK-{_next['booking']}"
    _next["booking"] += 1
    _hotel(booking_id, trip["trip_id"], check_in, nights)
    return BOOKINGS[booking_id]


@server.tool(
    description="Move a confirmed booking to a new date: a flight's departure date, or a hotel stay's "
    "check-in date (the number of nights stays the same).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def change_booking(booking_id: BookingId, new_date: IsoDate) -> dict:
    booking = _get_booking(booking_id)
    if booking["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is {booking['status']} and can no longer be changed.")
    day = _future(new_date, "New date")
    if booking["kind"] == "flight":
        booking["previous_date"] = booking["departure_date"]
        booking["departure_date"] = new_date
    else:
        booking["previous_date"] = booking["check_in"]
        booking["check_in"] = new_date
        booking["check_out"] = (day + timedelta(days=booking["nights"])).isoformat()
    return booking


@server.tool(
    description="Cancel a confirmed flight or hotel booking.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False),
)
def cancel_booking(booking_id: BookingId) -> dict:
    booking = _get_booking(booking_id)
    if booking["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is already {booking['status']}.")
    booking["status"] = "cancelled"
    booking["cancelled_on"] = TODAY.isoformat()
    return booking


@server.tool(
    description="Claim the per-diem (meals and incidentals) allowance for a trip that has started: "
    "the number of days claimed and the total amount in US dollars.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def claim_per_diem(
    trip_id: TripId,
    days: Annotated[int, Field(ge=1, le=60, description="Number of days claimed")],
    amount: Annotated[float, Field(gt=0, description="Total claimed, in US dollars")],
) -> dict:
    trip = _get_trip(trip_id)
    start = date.fromisoformat(trip["start_date"])
    end = date.fromisoformat(trip["end_date"])
    if start > TODAY:
        raise ToolError(f"Trip {trip_id} starts on {trip['start_date']}; per diem can be claimed once it has started.")
    if days > (end - start).days + 1:
        raise ToolError(f"Trip {trip_id} lasts {(end - start).days + 1} days; {days} days cannot be claimed.")
    claim_id = f"PDM-{_next['claim']:04d}"
    _next["claim"] += 1
    CLAIMS[claim_id] = {
        "claim_id": claim_id,
        "trip_id": trip_id,
        "days": days,
        "amount": round(amount, 2),
        "currency": "USD",
        "status": "submitted",
        "submitted_on": TODAY.isoformat(),
    }
    trip["per_diem_claims"].append(claim_id)
    return CLAIMS[claim_id]


@server.tool(
    description="Upgrade the cabin of an existing flight booking.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def upgrade_cabin(booking_id: BookingId, cabin: Literal["premium_economy", "business"]) -> dict:
    booking = _get_booking(booking_id)
    if booking["kind"] != "flight":
        raise ToolError(f"Booking {booking_id} is a hotel stay, not a flight.")
    if booking["status"] != "confirmed":
        raise ToolError(f"Booking {booking_id} is {booking['status']}.")
    booking["cabin"] = cabin
    return booking


if __name__ == "__main__":
    run(server)
