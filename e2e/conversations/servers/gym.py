"""A gym's front desk: an MCP server for a second blind evaluation set
(blind/gym-desk.conv), written after the first blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; bookings, cancellations and
freezes change state. Deterministic: bookings count from BKG-501."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-gym")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Day = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
CLASSES = {
    "CL-101": {"name": "Yoga", "day": "monday", "time": "7am", "spaces": 5},
    "CL-102": {"name": "Spin", "day": "monday", "time": "6pm", "spaces": 0},
    "CL-201": {"name": "Pilates", "day": "tuesday", "time": "9am", "spaces": 8},
    "CL-305": {"name": "HIIT", "day": "wednesday", "time": "12pm", "spaces": 6},
    "CL-410": {"name": "Boxing", "day": "thursday", "time": "7pm", "spaces": 4},
    "CL-512": {"name": "Zumba", "day": "friday", "time": "6pm", "spaces": 10},
    "CL-601": {"name": "Yoga", "day": "saturday", "time": "10am", "spaces": 12},
}
BOOKINGS = {"BKG-400": "CL-101", "BKG-401": "CL-201", "BKG-402": "CL-305", "BKG-403": "CL-410"}
MEMBERS = {
    "M-1001": {"plan": "Premium", "status": "active", "renews": "2027-01-15"},
    "M-1002": {"plan": "Basic", "status": "frozen until 2026-12-20", "renews": "2027-03-01"},
    "M-2050": {"plan": "Basic", "status": "active", "renews": "2027-06-30"},
}
NEXT = itertools.count(501)

ClassId = Annotated[str, Field(pattern=r"^CL-[0-9]{3}$", description="Class, e.g. CL-101")]
MemberId = Annotated[str, Field(pattern=r"^M-[0-9]{4}$", description="Member number, e.g. M-1001")]


@server.tool(description="Classes on a day of the week", annotations=READ)
def class_schedule(day: Day) -> dict:
    return {"day": day, "classes": [{"class_id": class_id, **{k: v for k, v in found.items() if k != "day"}}
                                    for class_id, found in CLASSES.items() if found["day"] == day]}


@server.tool(description="Book a place in a class", annotations=WRITE)
def book_class(class_id: ClassId) -> dict:
    if class_id not in CLASSES:
        raise ToolError(f"class {class_id} not found")
    if CLASSES[class_id]["spaces"] == 0:
        raise ToolError(f"class {class_id} is full")
    CLASSES[class_id]["spaces"] -= 1
    booking = f"BKG-{next(NEXT)}"
    BOOKINGS[booking] = class_id
    found = CLASSES[class_id]
    return {"booking_id": booking, "class_id": class_id, "class": found["name"], "day": found["day"],
            "time": found["time"]}


@server.tool(description="Cancel a class booking", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_booking(booking_id: Annotated[str, Field(pattern=r"^BKG-[0-9]+$", description="Booking, e.g. BKG-400")]) -> dict:
    if booking_id not in BOOKINGS:
        raise ToolError(f"booking {booking_id} not found")
    CLASSES[BOOKINGS.pop(booking_id)]["spaces"] += 1
    return {"booking_id": booking_id, "status": "cancelled"}


@server.tool(description="Plan, status and renewal date of a membership", annotations=READ)
def membership_status(member_id: MemberId) -> dict:
    if member_id not in MEMBERS:
        raise ToolError(f"member {member_id} not found")
    return {"member_id": member_id, **MEMBERS[member_id]}


@server.tool(description="Freeze a membership for some weeks", annotations=WRITE)
def freeze_membership(member_id: MemberId, weeks: Annotated[int, Field(ge=1, le=12, description="Weeks")]) -> dict:
    if member_id not in MEMBERS:
        raise ToolError(f"member {member_id} not found")
    MEMBERS[member_id]["status"] = f"frozen for {weeks} weeks"
    return {"member_id": member_id, "weeks": weeks, "status": "frozen"}


if __name__ == "__main__":
    run(server)
