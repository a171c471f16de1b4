"""An airline's booking desk: an MCP server for a blind evaluation set
(blind/flight-desk.conv), written after the fifth blind round's score and the
changes after it, before any tuning on it. Lookups say `readOnlyHint: true`;
seat changes, bags, check-in and cancellations change state. Deterministic."""

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-flights")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

FLIGHTS = {
    "NW101": {"route": "Oslo - London", "status": "on time", "departs": "09:40", "gate": "B4"},
    "NW202": {"route": "London - Boston", "status": "delayed 40 minutes", "departs": "13:15", "gate": "C11"},
    "NW303": {"route": "Boston - Chicago", "status": "cancelled", "departs": "17:05", "gate": ""},
    "NW404": {"route": "Boston - Chicago", "status": "on time", "departs": "19:30", "gate": "A2"},
}
BOOKINGS = {
    ref: {"flight": flight, "seat": seat, "bags": 0, "checked_in": False, "status": "confirmed"}
    for ref, flight, seat in [
        ("KQX482", "NW101", "21E"),
        ("LMP731", "NW202", "30B"),
        ("TRZ905", "NW404", "18E"),
        ("HBN264", "NW101", "27B"),
        ("WDC518", "NW202", "33E"),
        ("FJY377", "NW404", "12C"),
        ("PRA116", "NW101", "9D"),
        ("GUV853", "NW202", "15A"),
        ("SEL640", "NW404", "24F"),
        ("MOT297", "NW101", "6B"),
    ]
}

FlightNumber = Annotated[str, Field(pattern=r"^NW[0-9]{3}$", description="Flight, e.g. NW101")]
BookingRef = Annotated[str, Field(pattern=r"^[A-Z]{3}[0-9]{3}$", description="Booking, e.g. KQX482")]


def booking(ref: str) -> dict:
    found = BOOKINGS.get(ref)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"booking {ref} not found")
    return found


@server.tool(description="Whether a flight is on time, delayed or cancelled", annotations=READ)
def flight_status(flight_number: FlightNumber) -> dict:
    if flight_number not in FLIGHTS:
        raise ToolError(f"flight {flight_number} not found")
    return {"flight_number": flight_number, **FLIGHTS[flight_number]}


@server.tool(description="The flight, seat, bags and check-in of a booking", annotations=READ)
def booking_details(booking_ref: BookingRef) -> dict:
    if booking_ref not in BOOKINGS:
        raise ToolError(f"booking {booking_ref} not found")
    return {"booking_ref": booking_ref, **BOOKINGS[booking_ref]}


@server.tool(description="Move a passenger to another seat", annotations=WRITE)
def change_seat(booking_ref: BookingRef,
                seat: Annotated[str, Field(pattern=r"^[1-9][0-9]?[A-F]$", description="Seat, e.g. 14C")]) -> dict:
    found = booking(booking_ref)
    found["seat"] = seat
    return {"booking_ref": booking_ref, "seat": seat, "status": "seat changed"}


@server.tool(description="Add checked bags to a booking", annotations=WRITE)
def add_baggage(booking_ref: BookingRef,
                bags: Annotated[int, Field(ge=1, le=3, description="Bags to add")]) -> dict:
    found = booking(booking_ref)
    found["bags"] += bags
    return {"booking_ref": booking_ref, "bags": found["bags"], "status": "bags added"}


@server.tool(description="Check a passenger in and issue the boarding pass", annotations=WRITE)
def check_in(booking_ref: BookingRef) -> dict:
    found = booking(booking_ref)
    if FLIGHTS[found["flight"]]["status"] == "cancelled":
        raise ToolError(f"flight {found['flight']} is cancelled")
    found["checked_in"] = True
    return {"booking_ref": booking_ref, "seat": found["seat"], "status": "checked in"}


@server.tool(description="Cancel a booking", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_booking(booking_ref: BookingRef) -> dict:
    booking(booking_ref)["status"] = "cancelled"
    return {"booking_ref": booking_ref, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
