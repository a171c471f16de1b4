"""Room booking: an MCP server written for the conversation harness (not used
to tune the detector). Lookups say `readOnlyHint: true`; reserving and
cancelling change state. Deterministic: reservation ids count from RES-1001."""

import itertools
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("harness-rooms")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

ROOMS = {
    "3": {"room": "3", "name": "Quiet study 3", "capacity": 2, "free": True},
    "5": {"room": "5", "name": "Group study 5", "capacity": 6, "free": True},
    "7": {"room": "7", "name": "Seminar room 7", "capacity": 12, "free": False},
    "12": {"room": "12", "name": "Media room 12", "capacity": 4, "free": True},
}
RESERVATIONS = {"RES-900": {"room": "3", "people": 1}, "RES-901": {"room": "5", "people": 2}}
NEXT = itertools.count(1001)

RoomNumber = Annotated[str, Field(pattern=r"^[0-9]{1,3}$", description="Room number, e.g. 5")]


@server.tool(description="List every room with its capacity", annotations=READ)
def list_rooms() -> dict:
    return {"rooms": [{k: v for k, v in room.items() if k != "free"} for room in ROOMS.values()]}


@server.tool(description="Whether a room is free", annotations=READ)
def room_availability(room: RoomNumber) -> dict:
    if room not in ROOMS:
        raise ToolError(f"room {room} does not exist")
    return {"room": room, "available": ROOMS[room]["free"]}


@server.tool(description="Reserve a room for a number of people", annotations=WRITE)
def reserve_room(room: RoomNumber, people: Annotated[int, Field(ge=1, le=20, description="How many people")]) -> dict:
    if room not in ROOMS:
        raise ToolError(f"room {room} does not exist")
    if people > ROOMS[room]["capacity"]:
        raise ToolError(f"room {room} holds at most {ROOMS[room]['capacity']} people")
    reservation = f"RES-{next(NEXT)}"
    RESERVATIONS[reservation] = {"room": room, "people": people}
    return {"reservation_id": reservation, "room": room, "people": people, "status": "reserved"}


@server.tool(description="Cancel a reservation", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_reservation(reservation_id: Annotated[str, Field(pattern=r"^RES-[0-9]+$", description="Reservation number")]) -> dict:
    if reservation_id not in RESERVATIONS:
        raise ToolError(f"reservation {reservation_id} not found")
    del RESERVATIONS[reservation_id]
    return {"reservation_id": reservation_id, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
