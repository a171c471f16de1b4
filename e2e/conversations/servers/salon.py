"""A hair salon's front desk: an MCP server for a blind evaluation set
(blind/hair-salon.conv), written after the eighth blind round's score and the
changes after it, before any tuning on it. Lookups say `readOnlyHint: true`;
bookings, moves, cancellations and gift cards change state. Deterministic:
new appointments count from AP-4000, gift cards from GC-700."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-salon")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Service = Literal["haircut", "color", "blowout", "beard trim"]
PRICES = {"haircut": 45.0, "color": 120.0, "blowout": 35.0, "beard trim": 20.0}
STYLISTS = ["Maya", "Jon", "Priya"]
APPOINTMENTS = {
    f"AP-300{n}": {"service": "haircut", "date": f"2026-12-0{n}", "time": "10:00",
                   "stylist": STYLISTS[n % 3], "status": "booked"}
    for n in range(1, 10)
}
NEXT = itertools.count(4000)
CARDS = itertools.count(700)

AppointmentId = Annotated[str, Field(pattern=r"^AP-[0-9]{4}$", description="Appointment, e.g. AP-3001")]


def appointment(appointment_id: str) -> dict:
    if appointment_id not in APPOINTMENTS:
        raise ToolError(f"appointment {appointment_id} not found")
    return APPOINTMENTS[appointment_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="Book an appointment for a service on a day", annotations=WRITE)
def book_appointment(service: Service, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    appointment_id = f"AP-{next(NEXT)}"
    APPOINTMENTS[appointment_id] = {"service": service, "date": day(date), "time": "11:00",
                                    "stylist": "Maya", "status": "booked"}
    return {"appointment_id": appointment_id, **APPOINTMENTS[appointment_id]}


@server.tool(description="The time and stylist of an appointment", annotations=READ)
def appointment_details(appointment_id: AppointmentId) -> dict:
    return {"appointment_id": appointment_id, **appointment(appointment_id)}


@server.tool(description="Move an appointment to another day", annotations=WRITE)
def reschedule_appointment(appointment_id: AppointmentId,
                           date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    found = appointment(appointment_id)
    if found["status"] == "cancelled":
        raise ToolError(f"appointment {appointment_id} is cancelled")
    found["date"] = day(date)
    return {"appointment_id": appointment_id, "date": found["date"], "status": "rescheduled"}


@server.tool(description="Cancel an appointment",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_appointment(appointment_id: AppointmentId) -> dict:
    found = appointment(appointment_id)
    if found["status"] == "cancelled":
        raise ToolError(f"appointment {appointment_id} is already cancelled")
    found["status"] = "cancelled"
    return {"appointment_id": appointment_id, "status": "cancelled"}


@server.tool(description="The price of a service", annotations=READ)
def service_price(service: Service) -> dict:
    return {"service": service, "price": PRICES[service]}


@server.tool(description="Sell a gift card of an amount", annotations=WRITE)
def buy_gift_card(amount: Annotated[float, Field(gt=0)]) -> dict:
    return {"gift_card": f"GC-{next(CARDS)}", "amount": amount}


if __name__ == "__main__":
    run(server)
