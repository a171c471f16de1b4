"""A restaurant's reservations: an MCP server for a ninth blind evaluation set
(blind/restaurant-tables.conv), written after the eighth blind score and before
any tuning after it. Lookups say `readOnlyHint: true`; bookings, cancellations
and changes change state. Deterministic: reservations count from T-801."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-tables")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Slot = Literal["6pm", "7pm", "8pm", "9pm"]
TABLES = {
    "T-701": {"date": "2026-12-04", "time": "7pm", "people": 2, "status": "confirmed"},
    "T-702": {"date": "2026-12-05", "time": "8pm", "people": 4, "status": "confirmed"},
    "T-703": {"date": "2026-12-06", "time": "6pm", "people": 6, "status": "confirmed"},
    "T-704": {"date": "2026-12-11", "time": "9pm", "people": 2, "status": "confirmed"},
    "T-705": {"date": "2026-12-12", "time": "7pm", "people": 3, "status": "confirmed"},
    "T-706": {"date": "2026-12-13", "time": "8pm", "people": 5, "status": "confirmed"},
}
NEXT = itertools.count(801)


def day(text: str) -> None:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date: {text} is not a date (YYYY-MM-DD)")


def table(reservation_id: str) -> dict:
    found = TABLES.get(reservation_id)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"reservation {reservation_id} not found")
    return found


ReservationId = Annotated[str, Field(pattern=r"^T-[0-9]{3}$", description="Reservation, e.g. T-701")]


@server.tool(description="Free tables on an evening, by time", annotations=READ)
def free_tables(date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    day(date)
    return {"date": date, "6pm": 4, "7pm": 2, "8pm": 0 if date.endswith("-24") else 3, "9pm": 5}


@server.tool(description="Book a table", annotations=WRITE)
def book_table(date: Annotated[str, Field(description="YYYY-MM-DD")], time: Slot,
               people: Annotated[int, Field(ge=1, le=20, description="Guests")]) -> dict:
    day(date)
    if people > 12:
        raise ToolError(f"people: tables seat at most 12; {people} is a private event")
    reservation = f"T-{next(NEXT)}"
    TABLES[reservation] = {"date": date, "time": time, "people": people, "status": "confirmed"}
    return {"reservation_id": reservation, "date": date, "time": time, "people": people, "status": "confirmed"}


@server.tool(description="Cancel a table reservation", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_table(reservation_id: ReservationId) -> dict:
    table(reservation_id)["status"] = "cancelled"
    return {"reservation_id": reservation_id, "status": "cancelled"}


@server.tool(description="Details of a table reservation", annotations=READ)
def reservation_details(reservation_id: ReservationId) -> dict:
    if reservation_id not in TABLES:
        raise ToolError(f"reservation {reservation_id} not found")
    return {"reservation_id": reservation_id, **TABLES[reservation_id]}


@server.tool(description="Change how many guests a reservation is for", annotations=WRITE)
def change_party_size(reservation_id: ReservationId, people: Annotated[int, Field(ge=1, le=12, description="Guests")]) -> dict:
    table(reservation_id)["people"] = people
    return {"reservation_id": reservation_id, "people": people, "status": "updated"}


if __name__ == "__main__":
    run(server)
