"""Tern Harbour Marina's office desk: boat accounts, visitor berths (slips,
moorings and the T-head), fuel dock appointments, boatyard work, and the
harbour master's rules. In-memory and deterministic: every run starts from the
same seeded records. A blind evaluation server (round 18)."""

import datetime as dt
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-marina")

VESSEL_ID = r"^VSL-[0-9]{4}$"
RESERVATION_ID = r"^BRT-[0-9]{4}$"
ISO_DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
HHMM = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"

VesselId = Annotated[
    str, Field(pattern=VESSEL_ID, description="Boat account number, e.g. VSL-2207")
]
BerthType = Literal["slip", "mooring", "t_head"]
ShorePower = Literal["30_amp", "50_amp"]
FuelType = Literal["diesel", "gasoline"]
YardService = Literal["short_haul", "winter_storage", "bottom_paint", "shrink_wrap", "launch"]
RuleTopic = Literal[
    "speed_and_wake", "quiet_hours", "pets", "liveaboard", "fuelling_safety", "pump_out", "diy_work"
]

APPROVAL_LITRES = 1000

VESSELS: dict[str, dict] = {
    "VSL-2207": {"name": "Windrift", "type": "sloop", "length_ft": 36, "owner": "Maggie Ostrander",
                 "status": "resident", "home_berth": "C-14", "fuel": "diesel", "balance": 0.0},
    "VSL-3180": {"name": "Second Wind", "type": "trawler", "length_ft": 42, "owner": "Tom Bellamy",
                 "status": "resident", "home_berth": "B-07", "fuel": "diesel", "balance": 0.0},
    "VSL-4415": {"name": "Kittiwake", "type": "centre console", "length_ft": 24, "owner": "Ray Duchesne",
                 "status": "resident", "home_berth": "A-03", "fuel": "gasoline", "balance": 0.0},
    "VSL-5092": {"name": "Blue Heron", "type": "motor yacht", "length_ft": 58, "owner": "Priya Anand",
                 "status": "visitor", "home_berth": None, "fuel": "diesel", "balance": 0.0},
    "VSL-6634": {"name": "Sally Ann", "type": "lobster boat", "length_ft": 34, "owner": "Ed Pruitt",
                 "status": "resident", "home_berth": "mooring M-22", "fuel": "diesel", "balance": 85.0,
                 "balance_note": "late payment fee, November mooring invoice"},
    "VSL-7741": {"name": "Osprey II", "type": "catamaran", "length_ft": 40, "owner": "Lena Vos",
                 "status": "visitor", "home_berth": None, "fuel": "diesel", "balance": 0.0},
    "VSL-8058": {"name": "Puffin", "type": "runabout", "length_ft": 19, "owner": "Jo Kearney",
                 "status": "resident", "home_berth": "A-11", "fuel": "gasoline", "balance": 0.0},
}

RESERVATIONS: dict[str, dict] = {
    "BRT-5531": {"vessel_id": "VSL-5092", "berth_type": "t_head", "arrival": "2026-12-04", "nights": 3,
                 "shore_power": "50_amp", "status": "confirmed"},
    "BRT-5540": {"vessel_id": "VSL-7741", "berth_type": "mooring", "arrival": "2026-12-10", "nights": 2,
                 "shore_power": None, "status": "confirmed"},
    "BRT-5548": {"vessel_id": "VSL-5092", "berth_type": "t_head", "arrival": "2027-05-15", "nights": 7,
                 "shore_power": "50_amp", "status": "confirmed"},
}

FUEL_ORDERS: dict[str, dict] = {
    "FDO-8812": {"vessel_id": "VSL-3180", "fuel_type": "diesel", "litres": 400, "date": "2026-11-30",
                 "time": "10:00", "status": "pumped"},
    "FDO-8820": {"vessel_id": "VSL-4415", "fuel_type": "gasoline", "litres": 150, "date": "2026-12-02",
                 "time": None, "status": "booked"},
}

YARD_JOBS: dict[str, dict] = {
    "YRD-3307": {"vessel_id": "VSL-2207", "service": "winter_storage", "date": "2026-12-08",
                 "spend_limit": None, "status": "scheduled"},
    "YRD-3311": {"vessel_id": "VSL-3180", "service": "bottom_paint", "date": "2027-04-20",
                 "spend_limit": 2500.0, "status": "scheduled"},
}

FEE_WAIVERS: list[dict] = []

# Berths that take visitors; t_head is the face dock at the end of the main pier.
VISITOR_BERTHS = [
    {"berth": "A-20", "berth_type": "slip", "max_length_ft": 30, "power": ["30_amp"]},
    {"berth": "A-21", "berth_type": "slip", "max_length_ft": 30, "power": ["30_amp"]},
    {"berth": "D-02", "berth_type": "slip", "max_length_ft": 45, "power": ["30_amp", "50_amp"]},
    {"berth": "D-04", "berth_type": "slip", "max_length_ft": 45, "power": ["30_amp", "50_amp"]},
    {"berth": "T-1", "berth_type": "t_head", "max_length_ft": 90, "power": ["50_amp"]},
    {"berth": "M-30", "berth_type": "mooring", "max_length_ft": 40, "power": []},
    {"berth": "M-31", "berth_type": "mooring", "max_length_ft": 50, "power": []},
]

RULES = {
    "speed_and_wake": "5 knots and no wake from the harbour mouth buoy (red 'TH2') inward, "
                      "including the whole mooring field. Fines are set by the harbour master.",
    "quiet_hours": "Quiet hours are 22:00 to 07:00: no generators, no engines run at the dock "
                   "except to arrive or depart, no amplified music.",
    "pets": "Dogs are welcome on the docks on a leash; clean up after them. No pets in the office "
            "or the laundry. Cats aboard are fine.",
    "liveaboard": "Liveaboards need a liveaboard permit from the harbour master (resident berths "
                  "only), a working holding tank and a pump-out log. Visitors may stay aboard for "
                  "up to 14 nights.",
    "fuelling_safety": "At the fuel dock: engines off, no smoking, galley stoves and pilot lights off, "
                       "passengers ashore for gasoline, ventilate the bilge 4 minutes before starting.",
    "pump_out": "No discharge anywhere in the harbour. The pump-out station on the fuel dock is free "
                "for residents and $10 for visitors; the pump-out boat runs on request in season.",
    "diy_work": "Owners may do their own work on the hard (sanding needs a tarp and a vacuum sander; "
                "no spray painting). Hot work and outside contractors need a yard permit.",
}


def _date(value: str, field: str) -> str:
    try:
        dt.date.fromisoformat(value)
    except ValueError as err:
        raise ToolError(f"{field} '{value}' is not a calendar date (YYYY-MM-DD)") from err
    return value


def _vessel(vessel_id: str) -> dict:
    vessel = VESSELS.get(vessel_id)
    if vessel is None:
        known = ", ".join(sorted(VESSELS))
        raise ToolError(f"no boat account {vessel_id} (accounts on file: {known})")
    return vessel


def _next_id(prefix: str, table: dict) -> str:
    numbers = [int(key.split("-")[1]) for key in table]
    return f"{prefix}-{max(numbers) + 1:04d}"


@server.tool(
    description="A boat's account: the boat (name, type, length, owner, home berth), its balance, "
                "and everything booked for it — berth reservations, fuel orders and yard jobs with "
                "their status. Use it to answer whether an order or booking went through.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_vessel(vessel_id: VesselId) -> dict:
    vessel = _vessel(vessel_id)
    return {
        "vessel_id": vessel_id,
        **vessel,
        "reservations": [{"reservation_id": k, **v} for k, v in RESERVATIONS.items()
                         if v["vessel_id"] == vessel_id],
        "fuel_orders": [{"order_id": k, **v} for k, v in FUEL_ORDERS.items()
                        if v["vessel_id"] == vessel_id],
        "yard_jobs": [{"job_id": k, **v} for k, v in YARD_JOBS.items() if v["vessel_id"] == vessel_id],
    }


@server.tool(
    description="Which visitor berths are free for a boat of a given length from an arrival date "
                "for a number of nights. Optionally only one kind of berth.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_berths(
    arrival: Annotated[str, Field(pattern=ISO_DATE, description="First night, YYYY-MM-DD")],
    nights: Annotated[int, Field(ge=1, le=60, description="Number of nights")],
    length_ft: Annotated[float, Field(gt=0, le=200, description="Boat's length overall in feet")],
    berth_type: Annotated[BerthType | None, Field(description="slip, mooring or t_head")] = None,
) -> dict:
    _date(arrival, "arrival")
    start = dt.date.fromisoformat(arrival).toordinal()
    taken_types: dict[str, int] = {}
    for res in RESERVATIONS.values():
        if res["status"] != "confirmed":
            continue
        r_start = dt.date.fromisoformat(res["arrival"]).toordinal()
        if r_start < start + nights and start < r_start + res["nights"]:
            taken_types[res["berth_type"]] = taken_types.get(res["berth_type"], 0) + 1
    free = []
    skipped: dict[str, int] = dict(taken_types)
    for berth in VISITOR_BERTHS:
        if berth_type and berth["berth_type"] != berth_type:
            continue
        if berth["max_length_ft"] < length_ft:
            continue
        if skipped.get(berth["berth_type"], 0) > 0:
            skipped[berth["berth_type"]] -= 1
            continue
        free.append(berth)
    return {"arrival": arrival, "nights": nights, "length_ft": length_ft,
            "berth_type": berth_type, "available": free}


@server.tool(
    description="Reserve a visitor berth (a slip, a mooring ball, or the T-head face dock) for a "
                "boat on account, from an arrival date for a number of nights. Shore power only "
                "applies to slips and the T-head.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def reserve_berth(
    vessel_id: VesselId,
    berth_type: Annotated[BerthType, Field(description="slip, mooring or t_head")],
    arrival: Annotated[str, Field(pattern=ISO_DATE, description="First night, YYYY-MM-DD")],
    nights: Annotated[int, Field(ge=1, le=60, description="Number of nights")],
    shore_power: Annotated[ShorePower | None, Field(description="30_amp or 50_amp hookup")] = None,
) -> dict:
    vessel = _vessel(vessel_id)
    _date(arrival, "arrival")
    if berth_type == "mooring" and shore_power:
        raise ToolError("moorings have no shore power; leave shore_power out for a mooring")
    if berth_type == "mooring" and vessel["length_ft"] > 50:
        raise ToolError(f"{vessel['name']} is {vessel['length_ft']} ft; moorings take boats up to 50 ft")
    reservation_id = _next_id("BRT", RESERVATIONS)
    RESERVATIONS[reservation_id] = {"vessel_id": vessel_id, "berth_type": berth_type, "arrival": arrival,
                                    "nights": nights, "shore_power": shore_power, "status": "confirmed"}
    return {"reservation_id": reservation_id, "vessel": vessel["name"], **RESERVATIONS[reservation_id]}


@server.tool(
    description="Cancel a berth reservation by its number.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def cancel_reservation(
    reservation_id: Annotated[str, Field(pattern=RESERVATION_ID, description="e.g. BRT-5531")],
) -> dict:
    res = RESERVATIONS.get(reservation_id)
    if res is None:
        raise ToolError(f"no reservation {reservation_id}")
    already = res["status"] == "cancelled"
    res["status"] = "cancelled"
    return {"reservation_id": reservation_id, "status": "cancelled", "already_cancelled": already,
            "arrival": res["arrival"], "nights": res["nights"], "vessel_id": res["vessel_id"]}


@server.tool(
    description="Book a fuel dock appointment: a fuel type and a quantity in litres for a boat on "
                "account on a date, optionally at a time. Orders over 1,000 litres bring in the "
                "fuel truck and need the dockmaster's approval.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def order_fuel(
    vessel_id: VesselId,
    fuel_type: Annotated[FuelType, Field(description="diesel or gasoline")],
    litres: Annotated[int, Field(ge=1, le=10000, description="Quantity in litres")],
    date: Annotated[str, Field(pattern=ISO_DATE, description="Day of the appointment, YYYY-MM-DD")],
    time: Annotated[str | None, Field(pattern=HHMM, description="Appointment time, 24h HH:MM")] = None,
) -> dict:
    vessel = _vessel(vessel_id)
    _date(date, "date")
    if vessel["fuel"] != fuel_type:
        note = f"note: {vessel['name']} is listed as running on {vessel['fuel']}"
    else:
        note = None
    order_id = _next_id("FDO", FUEL_ORDERS)
    FUEL_ORDERS[order_id] = {"vessel_id": vessel_id, "fuel_type": fuel_type, "litres": litres,
                             "date": date, "time": time, "status": "booked"}
    out = {"order_id": order_id, "vessel": vessel["name"], **FUEL_ORDERS[order_id],
           "fuel_truck": litres > APPROVAL_LITRES}
    if note:
        out["note"] = note
    return out


@server.tool(
    description="Book boatyard work on the travel lift: short_haul (lift and hold in the slings, "
                "back in the same day), winter_storage (haul, wash and block ashore for the season), "
                "bottom_paint (haul, sand and antifoul), shrink_wrap (wrap a boat stored ashore), "
                "launch (put a stored boat back in). An optional spend limit caps what the yard may "
                "spend before calling the owner.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def schedule_yard_work(
    vessel_id: VesselId,
    service: Annotated[YardService, Field(description="The yard service")],
    date: Annotated[str, Field(pattern=ISO_DATE, description="Day of the work, YYYY-MM-DD")],
    spend_limit: Annotated[float | None, Field(gt=0, description="Most the yard may spend, in dollars")] = None,
) -> dict:
    vessel = _vessel(vessel_id)
    _date(date, "date")
    job_id = _next_id("YRD", YARD_JOBS)
    YARD_JOBS[job_id] = {"vessel_id": vessel_id, "service": service, "date": date,
                         "spend_limit": spend_limit, "status": "scheduled"}
    return {"job_id": job_id, "vessel": vessel["name"], "length_ft": vessel["length_ft"], **YARD_JOBS[job_id]}


@server.tool(
    description="The harbour master's rules on one topic: speed_and_wake, quiet_hours, pets, "
                "liveaboard, fuelling_safety, pump_out, diy_work.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def harbour_rules(topic: Annotated[RuleTopic, Field(description="The rule's topic")]) -> dict:
    return {"topic": topic, "rule": RULES[topic], "issued_by": "Harbour Master, Tern Harbour"}


@server.tool(
    description="Waive a fee on a boat's account (harbour master only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def waive_fee(
    vessel_id: VesselId,
    amount: Annotated[float, Field(gt=0, description="Amount to waive, in dollars")],
    reason: Annotated[str, Field(min_length=3, description="Why it is waived")],
) -> dict:
    vessel = _vessel(vessel_id)
    if amount > vessel["balance"]:
        raise ToolError(f"{vessel_id} owes ${vessel['balance']:.2f}; cannot waive ${amount:.2f}")
    vessel["balance"] = round(vessel["balance"] - amount, 2)
    FEE_WAIVERS.append({"vessel_id": vessel_id, "amount": amount, "reason": reason})
    return {"vessel_id": vessel_id, "waived": amount, "balance": vessel["balance"]}


if __name__ == "__main__":
    run(server)
