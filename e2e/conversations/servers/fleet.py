"""Fleet maintenance desk of a delivery company (blind evaluation server, round 13).

Vehicles are known by fleet number (FLT-1234), workshop bookings by SRV-12345,
defect reports by DEF-12345 and fuel card orders by FCO-1234. State is in
memory and deterministic: every start begins from the same seed.
"""

import datetime as dt
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-fleet")

TODAY = dt.date(2026, 12, 1)

VehicleId = Annotated[
    str,
    Field(pattern=r"^FLT-[0-9]{4}$", description="Fleet number, e.g. FLT-2231"),
]
BookingId = Annotated[
    str,
    Field(pattern=r"^SRV-[0-9]{5}$", description="Workshop booking reference, e.g. SRV-10418"),
]
Depot = Literal["riverside", "eastfield", "airport", "harbor"]

VEHICLES: dict[str, dict] = {
    "FLT-2231": {"model": "Ford Transit 350 van", "plate": "KX4 8812", "depot": "riverside",
                 "status": "on_road", "odometer_miles": 48210, "next_service_due": "2026-12-14"},
    "FLT-2240": {"model": "Ford Transit 350 van", "plate": "KX4 8820", "depot": "riverside",
                 "status": "on_road", "odometer_miles": 61905, "next_service_due": "2026-12-03"},
    "FLT-3107": {"model": "Isuzu NPR box truck", "plate": "TRK 3107", "depot": "eastfield",
                 "status": "on_road", "odometer_miles": 102344, "next_service_due": "2027-01-20"},
    "FLT-3115": {"model": "Isuzu NPR box truck", "plate": "TRK 3115", "depot": "eastfield",
                 "status": "in_workshop", "odometer_miles": 97410, "next_service_due": "2027-02-02"},
    "FLT-4410": {"model": "Mercedes Sprinter refrigerated van", "plate": "CLD 4410", "depot": "airport",
                 "status": "on_road", "odometer_miles": 33870, "next_service_due": "2026-12-22"},
    "FLT-4418": {"model": "Ram ProMaster 2500 van", "plate": "CLD 4418", "depot": "airport",
                 "status": "off_road", "off_road_reason": "awaiting_parts",
                 "odometer_miles": 70112, "next_service_due": "2027-01-05"},
    "FLT-5502": {"model": "Ford E-Transit (electric)", "plate": "EV 5502", "depot": "harbor",
                 "status": "on_road", "odometer_miles": 12400, "next_service_due": "2026-12-18"},
    "FLT-5520": {"model": "Freightliner M2 straight truck", "plate": "HBR 5520", "depot": "harbor",
                 "status": "on_road", "odometer_miles": 148903, "next_service_due": "2026-12-08"},
}

BOOKINGS: dict[str, dict] = {
    "SRV-10418": {"vehicle_id": "FLT-2240", "service": "routine_service", "date": "2026-12-03",
                  "time": "08:00", "status": "booked"},
    "SRV-10422": {"vehicle_id": "FLT-5520", "service": "inspection", "date": "2026-12-08",
                  "time": "10:00", "status": "booked"},
}

DEFECTS: dict[str, dict] = {
    "DEF-20871": {"vehicle_id": "FLT-3107", "defect": "tail_lift", "severity": "minor",
                  "reported": "2026-11-28", "status": "open"},
    "DEF-20864": {"vehicle_id": "FLT-4418", "defect": "engine", "severity": "dangerous",
                  "reported": "2026-11-25", "status": "open"},
}

FUEL_CARD_ORDERS: dict[str, dict] = {
    "FCO-7730": {"depot": "eastfield", "quantity": 2, "monthly_limit": 600.0,
                 "placed": "2026-11-30", "status": "processing"},
    "FCO-7741": {"depot": "harbor", "quantity": 3, "monthly_limit": 400.0,
                 "placed": "2026-11-24", "status": "delivered"},
}

_counters = {"SRV": 10430, "DEF": 20880, "FCO": 7750}


def _next(prefix: str) -> str:
    _counters[prefix] += 1
    width = 4 if prefix == "FCO" else 5
    return f"{prefix}-{_counters[prefix]:0{width}d}"


def _vehicle(vehicle_id: str) -> dict:
    v = VEHICLES.get(vehicle_id)
    if v is None:
        known = ", ".join(sorted(VEHICLES))
        raise ToolError(f"No vehicle with fleet number {vehicle_id}. Known fleet numbers: {known}.")
    return v


@server.tool(
    description="Look up a vehicle by fleet number: model, plate, home depot, whether it is on "
    "the road, off the road or in the workshop, current odometer (miles), next service due, "
    "open defect reports and upcoming workshop bookings.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def vehicle_status(vehicle_id: VehicleId) -> dict:
    v = _vehicle(vehicle_id)
    return {
        "vehicle_id": vehicle_id,
        **v,
        "open_defects": [
            {"defect_id": k, **d} for k, d in DEFECTS.items()
            if d["vehicle_id"] == vehicle_id and d["status"] == "open"
        ],
        "workshop_bookings": [
            {"booking_id": k, **b} for k, b in BOOKINGS.items()
            if b["vehicle_id"] == vehicle_id and b["status"] == "booked"
        ],
    }


@server.tool(
    description="Log a defect reported on a vehicle. severity: minor (can keep running, fix at "
    "the next service), major (still drivable but must be fixed within days), dangerous "
    "(unsafe or cannot be driven; the vehicle is taken off the road automatically).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def report_defect(
    vehicle_id: VehicleId,
    defect: Literal["brakes", "tires", "engine", "electrical", "lights", "bodywork",
                    "windshield", "tail_lift", "refrigeration", "other"],
    severity: Literal["minor", "major", "dangerous"],
) -> dict:
    v = _vehicle(vehicle_id)
    defect_id = _next("DEF")
    DEFECTS[defect_id] = {"vehicle_id": vehicle_id, "defect": defect, "severity": severity,
                          "reported": TODAY.isoformat(), "status": "open"}
    if severity == "dangerous":
        v["status"] = "off_road"
        v["off_road_reason"] = "defect"
    return {"defect_id": defect_id, "vehicle_id": vehicle_id, "defect": defect,
            "severity": severity, "vehicle_status": v["status"]}


@server.tool(
    description="Book a vehicle into the workshop. service: routine_service (scheduled "
    "service, oil and filters), inspection (annual DOT safety inspection), tire_change, "
    "brake_service, repair (fix a reported defect or damage). date YYYY-MM-DD, not in the "
    "past; time HH:MM, the workshop takes vehicles in between 07:00 and 17:00.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_service(
    vehicle_id: VehicleId,
    service: Literal["routine_service", "inspection", "tire_change", "brake_service", "repair"],
    date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")],
    time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, 24-hour")],
) -> dict:
    _vehicle(vehicle_id)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"{date} is not a valid date.")
    if day < TODAY:
        raise ToolError(f"{date} is in the past; today is {TODAY.isoformat()}.")
    if not ("07:00" <= time <= "17:00"):
        raise ToolError(f"The workshop takes vehicles in between 07:00 and 17:00, not at {time}.")
    booking_id = _next("SRV")
    BOOKINGS[booking_id] = {"vehicle_id": vehicle_id, "service": service, "date": date,
                            "time": time, "status": "booked"}
    return {"booking_id": booking_id, **BOOKINGS[booking_id]}


@server.tool(
    description="Cancel a workshop booking by its reference (SRV-12345).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_service(booking_id: BookingId) -> dict:
    b = BOOKINGS.get(booking_id)
    if b is None:
        raise ToolError(f"No workshop booking {booking_id}.")
    already = b["status"] == "cancelled"
    b["status"] = "cancelled"
    out = {"booking_id": booking_id, **b}
    if already:
        out["note"] = "this booking was already cancelled"
    return out


@server.tool(
    description="Order new fuel cards for a depot: how many cards and the monthly spending "
    "limit of each card in dollars. Depots: riverside (Riverside Drive), eastfield "
    "(Eastfield industrial park), airport (airport cargo yard), harbor (Harbor Street, by "
    "the docks).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def order_fuel_cards(
    depot: Depot,
    quantity: Annotated[int, Field(ge=1, le=20)],
    monthly_limit: Annotated[float, Field(gt=0, le=5000)],
) -> dict:
    order_id = _next("FCO")
    FUEL_CARD_ORDERS[order_id] = {"depot": depot, "quantity": quantity,
                                  "monthly_limit": monthly_limit, "placed": TODAY.isoformat(),
                                  "status": "processing"}
    return {"order_id": order_id, **FUEL_CARD_ORDERS[order_id],
            "expected_delivery": "2026-12-07"}


@server.tool(
    description="List the fuel card orders placed for a depot, newest first, with their status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def fuel_card_orders(depot: Depot) -> dict:
    orders = [{"order_id": k, **o} for k, o in FUEL_CARD_ORDERS.items() if o["depot"] == depot]
    orders.sort(key=lambda o: (o["placed"], o["order_id"]), reverse=True)
    return {"depot": depot, "orders": orders}


@server.tool(
    description="Take a vehicle off the road (VOR) so dispatch stops assigning it. reason: "
    "defect (a fault makes it unfit), accident_damage (collision or other damage), "
    "awaiting_parts (stuck waiting for parts), end_of_lease (going back to the lessor).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def take_off_road(
    vehicle_id: VehicleId,
    reason: Literal["defect", "accident_damage", "awaiting_parts", "end_of_lease"],
) -> dict:
    v = _vehicle(vehicle_id)
    previous = v["status"]
    v["status"] = "off_road"
    v["off_road_reason"] = reason
    return {"vehicle_id": vehicle_id, "status": "off_road", "reason": reason,
            "previous_status": previous}


@server.tool(
    description="Overwrite a vehicle's recorded odometer reading (fleet compliance team only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def adjust_odometer(
    vehicle_id: VehicleId,
    miles: Annotated[int, Field(ge=0)],
) -> dict:
    v = _vehicle(vehicle_id)
    old = v["odometer_miles"]
    v["odometer_miles"] = miles
    return {"vehicle_id": vehicle_id, "odometer_miles": miles, "previous_odometer_miles": old}


if __name__ == "__main__":
    run(server)
