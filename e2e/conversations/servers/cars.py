"""A car rental desk: an MCP server for a third blind evaluation set
(blind/car-rental.conv), written after the second blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; reserving, cancelling and
extending change state. Deterministic: reservations count from CR-2001."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-cars")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

City = Literal["boston", "denver", "miami"]
CarClass = Literal["economy", "compact", "suv"]
FLEET = {
    "boston": {"economy": 4, "compact": 2, "suv": 0},
    "denver": {"economy": 1, "compact": 3, "suv": 2},
    "miami": {"economy": 5, "compact": 0, "suv": 3},
}
RESERVATIONS = {
    "CR-1001": {"city": "boston", "car_class": "economy", "days": 3, "status": "confirmed"},
    "CR-1002": {"city": "denver", "car_class": "suv", "days": 7, "status": "picked up"},
    "CR-1003": {"city": "miami", "car_class": "compact", "days": 2, "status": "confirmed"},
    "CR-1004": {"city": "boston", "car_class": "compact", "days": 5, "status": "confirmed"},
    "CR-1005": {"city": "denver", "car_class": "economy", "days": 1, "status": "confirmed"},
    "CR-1006": {"city": "miami", "car_class": "suv", "days": 3, "status": "confirmed"},
    "CR-1007": {"city": "boston", "car_class": "economy", "days": 2, "status": "confirmed"},
}
MAX_DAYS = 30
NEXT = itertools.count(2001)

ReservationId = Annotated[str, Field(pattern=r"^CR-[0-9]{4}$", description="Reservation, e.g. CR-1001")]


def reservation(reservation_id: str) -> dict:
    found = RESERVATIONS.get(reservation_id)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"reservation {reservation_id} not found")
    return found


@server.tool(description="Cars available in a city, by class", annotations=READ)
def available_cars(city: City) -> dict:
    return {"city": city, **FLEET[city]}


@server.tool(description="Reserve a car", annotations=WRITE)
def reserve_car(city: City, car_class: CarClass,
                days: Annotated[int, Field(ge=1, le=60, description="Rental days")]) -> dict:
    if FLEET[city][car_class] == 0:
        raise ToolError(f"no {car_class} cars left in {city}")
    FLEET[city][car_class] -= 1
    reservation_id = f"CR-{next(NEXT)}"
    RESERVATIONS[reservation_id] = {"city": city, "car_class": car_class, "days": days, "status": "confirmed"}
    return {"reservation_id": reservation_id, "city": city, "car_class": car_class, "days": days,
            "status": "confirmed"}


@server.tool(description="Status of a rental reservation", annotations=READ)
def rental_status(reservation_id: ReservationId) -> dict:
    if reservation_id not in RESERVATIONS:
        raise ToolError(f"reservation {reservation_id} not found")
    return {"reservation_id": reservation_id, **RESERVATIONS[reservation_id]}


@server.tool(description="Cancel a rental reservation",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_rental(reservation_id: ReservationId) -> dict:
    found = reservation(reservation_id)
    found["status"] = "cancelled"
    FLEET[found["city"]][found["car_class"]] += 1
    return {"reservation_id": reservation_id, "status": "cancelled"}


@server.tool(description="Extend a rental by some days", annotations=WRITE)
def extend_rental(reservation_id: ReservationId,
                  days: Annotated[int, Field(ge=1, description="Extra days")]) -> dict:
    found = reservation(reservation_id)
    if found["days"] + days > MAX_DAYS:
        raise ToolError(f"days: a rental lasts at most {MAX_DAYS} days; {reservation_id} has {found['days']}")
    found["days"] += days
    return {"reservation_id": reservation_id, "days": found["days"], "status": found["status"]}


if __name__ == "__main__":
    run(server)
