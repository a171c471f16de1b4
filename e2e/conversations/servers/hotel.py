"""A hotel front desk: an MCP server for a seventh blind evaluation set
(blind/hotel-desk.conv), written after the fifth blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; bookings, cancellations and
late checkouts change state. Deterministic: bookings count from HB-3001."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-hotel")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

BOOKINGS = {
    "HB-2001": {"room_type": "double", "date": "2026-12-10", "nights": 2, "status": "confirmed"},
    "HB-2002": {"room_type": "single", "date": "2026-12-12", "nights": 1, "status": "confirmed"},
    "HB-2003": {"room_type": "suite", "date": "2026-12-20", "nights": 3, "status": "confirmed"},
    "HB-2004": {"room_type": "double", "date": "2026-12-24", "nights": 4, "status": "confirmed"},
    "HB-2005": {"room_type": "single", "date": "2026-12-05", "nights": 2, "status": "checked in"},
    "HB-2006": {"room_type": "double", "date": "2026-12-06", "nights": 1, "status": "confirmed"},
    "HB-2007": {"room_type": "single", "date": "2026-12-08", "nights": 2, "status": "confirmed"},
}
NEXT = itertools.count(3001)

BookingRef = Annotated[str, Field(pattern=r"^HB-[0-9]{4}$", description="Booking, e.g. HB-2001")]
Day = Annotated[str, Field(description="Day, YYYY-MM-DD")]


def day(text: str) -> None:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date: {text} is not a date (YYYY-MM-DD)")


@server.tool(description="Rooms free on a night, by type", annotations=READ)
def room_availability(date: Day) -> dict:
    day(date)
    return {"date": date, "single": 3, "double": 2, "suite": 1}


@server.tool(description="Book a room", annotations=WRITE)
def book_room(room_type: Literal["single", "double", "suite"], date: Day,
              nights: Annotated[int, Field(ge=1, le=30, description="Nights")]) -> dict:
    day(date)
    booking = f"HB-{next(NEXT)}"
    BOOKINGS[booking] = {"room_type": room_type, "date": date, "nights": nights, "status": "confirmed"}
    return {"booking_ref": booking, "room_type": room_type, "date": date, "nights": nights, "status": "confirmed"}


@server.tool(description="Cancel a booking", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_booking(booking_ref: BookingRef) -> dict:
    found = BOOKINGS.get(booking_ref)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"booking {booking_ref} not found")
    found["status"] = "cancelled"
    return {"booking_ref": booking_ref, "status": "cancelled"}


@server.tool(description="Details of a booking", annotations=READ)
def booking_details(booking_ref: BookingRef) -> dict:
    if booking_ref not in BOOKINGS:
        raise ToolError(f"booking {booking_ref} not found")
    return {"booking_ref": booking_ref, **BOOKINGS[booking_ref]}


@server.tool(description="Arrange a late checkout", annotations=WRITE)
def late_checkout(booking_ref: BookingRef, time: Literal["12pm", "1pm", "2pm"]) -> dict:
    found = BOOKINGS.get(booking_ref)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"booking {booking_ref} not found")
    found["late_checkout"] = time
    return {"booking_ref": booking_ref, "late_checkout": time, "status": "confirmed"}


if __name__ == "__main__":
    run(server)
