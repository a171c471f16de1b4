"""A coworking space's desk: an MCP server for an eleventh blind evaluation
set (blind/coworking-desk.conv), written after the eighth blind score and
before any tuning after it. Lookups say `readOnlyHint: true`; bookings,
cancellations and guest passes change state. Deterministic: bookings count
from CW-200."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-cowork")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

BOOKINGS = {
    "CW-100": {"date": "2026-12-02", "desk_type": "hot desk", "status": "confirmed"},
    "CW-101": {"date": "2026-12-03", "desk_type": "fixed desk", "status": "confirmed"},
    "CW-102": {"date": "2026-12-04", "desk_type": "meeting room", "status": "confirmed"},
    "CW-103": {"date": "2026-12-07", "desk_type": "hot desk", "status": "confirmed"},
    "CW-104": {"date": "2026-12-08", "desk_type": "hot desk", "status": "confirmed"},
    "CW-105": {"date": "2026-12-09", "desk_type": "fixed desk", "status": "confirmed"},
}
NEXT = itertools.count(200)

BookingId = Annotated[str, Field(pattern=r"^CW-[0-9]{3}$", description="Booking, e.g. CW-101")]


def day(text: str) -> None:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date: {text} is not a date (YYYY-MM-DD)")


def booking(booking_id: str) -> dict:
    found = BOOKINGS.get(booking_id)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"booking {booking_id} not found")
    return found


@server.tool(description="Desks free on a day", annotations=READ)
def desk_availability(date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    day(date)
    return {"date": date, "hot desks": 12, "fixed desks": 3, "meeting room": "free"}


@server.tool(description="Book a desk or the meeting room", annotations=WRITE)
def book_desk(date: Annotated[str, Field(description="YYYY-MM-DD")],
              desk_type: Literal["hot desk", "fixed desk", "meeting room"]) -> dict:
    day(date)
    booking_id = f"CW-{next(NEXT)}"
    BOOKINGS[booking_id] = {"date": date, "desk_type": desk_type, "status": "confirmed"}
    return {"booking_id": booking_id, "date": date, "desk_type": desk_type, "status": "confirmed"}


@server.tool(description="Cancel a booking", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_desk(booking_id: BookingId) -> dict:
    booking(booking_id)["status"] = "cancelled"
    return {"booking_id": booking_id, "status": "cancelled"}


@server.tool(description="Details of a booking", annotations=READ)
def booking_info(booking_id: BookingId) -> dict:
    if booking_id not in BOOKINGS:
        raise ToolError(f"booking {booking_id} not found")
    return {"booking_id": booking_id, **BOOKINGS[booking_id]}


@server.tool(description="A day pass for a guest on a booking", annotations=WRITE)
def guest_pass(booking_id: BookingId, guest_email: Annotated[str, Field(description="Guest's email")]) -> dict:
    booking(booking_id)
    if "@" not in guest_email:
        raise ToolError(f"guest_email: {guest_email} is not an email")
    return {"booking_id": booking_id, "guest_email": guest_email, "status": "pass sent"}


if __name__ == "__main__":
    run(server)
