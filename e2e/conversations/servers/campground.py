"""A campground's reservation office: an MCP server for a blind evaluation
set (blind/campground.conv), written after the tenth blind round's score and
the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; reservations, cancellations, extensions and firewood
change state. Deterministic: new reservations count from CG-700."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-campground")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

SiteType = Literal["tent", "rv", "cabin"]
FREE = {"tent": 12, "rv": 4, "cabin": 1}
RESERVATIONS = {f"CG-40{n}": {"site_type": "tent", "date": "2026-12-11", "nights": 2, "status": "reserved"}
                for n in range(1, 10)}
NEXT = itertools.count(700)

ReservationId = Annotated[str, Field(pattern=r"^CG-[0-9]{3}$", description="Reservation, e.g. CG-401")]
Count = Annotated[int, Field(gt=0, le=30)]


def reservation(reservation_id: str) -> dict:
    if reservation_id not in RESERVATIONS:
        raise ToolError(f"reservation {reservation_id} not found")
    return RESERVATIONS[reservation_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="How many sites of a type are free on a night", annotations=READ)
def site_availability(site_type: SiteType, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    return {"site_type": site_type, "date": day(date), "free": FREE[site_type]}


@server.tool(description="Reserve a site of a type for a number of nights from a day", annotations=WRITE)
def reserve_site(site_type: SiteType, date: Annotated[str, Field(description="YYYY-MM-DD")], nights: Count) -> dict:
    reservation_id = f"CG-{next(NEXT)}"
    RESERVATIONS[reservation_id] = {"site_type": site_type, "date": day(date), "nights": nights,
                                    "status": "reserved"}
    return {"reservation_id": reservation_id, **RESERVATIONS[reservation_id]}


@server.tool(description="Cancel a site reservation",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_reservation(reservation_id: ReservationId) -> dict:
    found = reservation(reservation_id)
    if found["status"] == "cancelled":
        raise ToolError(f"reservation {reservation_id} is already cancelled")
    found["status"] = "cancelled"
    return {"reservation_id": reservation_id, "status": "cancelled"}


@server.tool(description="Add nights to a reservation", annotations=WRITE)
def extend_stay(reservation_id: ReservationId, nights: Count) -> dict:
    found = reservation(reservation_id)
    found["nights"] += nights
    return {"reservation_id": reservation_id, "nights": found["nights"]}


@server.tool(description="Deliver bundles of firewood to a reserved site", annotations=WRITE)
def order_firewood(reservation_id: ReservationId, bundles: Count) -> dict:
    reservation(reservation_id)
    return {"reservation_id": reservation_id, "bundles": bundles, "price": 8.0 * bundles}


@server.tool(description="Check-in and check-out times", annotations=READ)
def checkin_info() -> dict:
    return {"check_in": "14:00", "check_out": "11:00"}


if __name__ == "__main__":
    run(server)
