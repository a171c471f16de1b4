"""An apartment building's resident desk: an MCP server for a blind
evaluation set (blind/apartment-desk.conv), written after the ninth blind
round's score and the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; requests, payments, reservations and cancellations
change state. Deterministic: new requests count from MR-2000, reservations
from RS-400."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-apartments")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Issue = Literal["plumbing", "heating", "electrical", "appliance", "pests"]
Amenity = Literal["party room", "guest suite", "rooftop grill"]
UNITS = {f"APT-{floor}0{n}": {"balance": 1450.0 * (n % 2)} for floor in (1, 2, 3) for n in range(1, 10)}
REQUESTS = {f"MR-100{n}": {"issue": "plumbing", "unit": "APT-101", "status": "technician scheduled",
                           "visit": "2026-12-03"} for n in range(1, 10)}
RESERVATIONS = {f"RS-30{n}": {"amenity": "party room", "date": "2026-12-12", "status": "reserved"}
                for n in range(1, 10)}
NEXT_REQUEST = itertools.count(2000)
NEXT_RESERVATION = itertools.count(400)

UnitId = Annotated[str, Field(pattern=r"^APT-[0-9]{3}$", description="Apartment, e.g. APT-101")]


def apartment(unit_id: str) -> dict:
    if unit_id not in UNITS:
        raise ToolError(f"apartment {unit_id} not found")
    return UNITS[unit_id]


@server.tool(description="Open a maintenance request for a unit", annotations=WRITE)
def maintenance_request(issue: Issue, unit: UnitId) -> dict:
    if unit not in UNITS:
        raise ToolError(f"apartment {unit} not found")
    ticket = f"MR-{next(NEXT_REQUEST)}"
    REQUESTS[ticket] = {"issue": issue, "unit": unit, "status": "open", "visit": ""}
    return {"ticket": ticket, "issue": issue, "unit": unit, "status": "open"}


@server.tool(description="Where a maintenance request stands", annotations=READ)
def request_status(ticket: Annotated[str, Field(pattern=r"^MR-[0-9]{4}$")]) -> dict:
    if ticket not in REQUESTS:
        raise ToolError(f"request {ticket} not found")
    return {"ticket": ticket, **REQUESTS[ticket]}


@server.tool(description="How much rent is owed on a unit", annotations=READ)
def rent_balance(unit: UnitId) -> dict:
    return {"unit": unit, "balance": apartment(unit)["balance"]}


@server.tool(description="Take a rent payment for a unit", annotations=WRITE)
def pay_rent(unit: UnitId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = apartment(unit)
    found["balance"] = round(found["balance"] - amount, 2)
    return {"unit": unit, "paid": amount, "balance": found["balance"]}


@server.tool(description="Reserve a shared space on a day", annotations=WRITE)
def reserve_amenity(amenity: Amenity, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    reservation = f"RS-{next(NEXT_RESERVATION)}"
    RESERVATIONS[reservation] = {"amenity": amenity, "date": date, "status": "reserved"}
    return {"reservation_id": reservation, "amenity": amenity, "date": date}


@server.tool(description="Cancel a reservation of a shared space",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_reservation(reservation_id: Annotated[str, Field(pattern=r"^RS-[0-9]{3}$")]) -> dict:
    if reservation_id not in RESERVATIONS:
        raise ToolError(f"reservation {reservation_id} not found")
    found = RESERVATIONS[reservation_id]
    if found["status"] == "cancelled":
        raise ToolError(f"reservation {reservation_id} is already cancelled")
    found["status"] = "cancelled"
    return {"reservation_id": reservation_id, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
