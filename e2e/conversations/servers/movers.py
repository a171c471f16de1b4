"""A moving company's booking desk: an MCP server for a blind evaluation set
(blind/moving-company.conv), written after the tenth blind round's score and
the changes after it, before any tuning on it. Quotes and lookups say
`readOnlyHint: true`; bookings, date changes, packing and cancellations
change state. Deterministic: new moves count from MV-3000."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-movers")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Size = Literal["studio", "1 bedroom", "2 bedroom", "3 bedroom"]
PRICES = {"studio": 450.0, "1 bedroom": 700.0, "2 bedroom": 1100.0, "3 bedroom": 1600.0}
MOVES = {f"MV-200{n}": {"home_size": "2 bedroom", "date": f"2026-12-1{n}", "packing": False,
                        "status": "booked"} for n in range(1, 10)}
NEXT = itertools.count(3000)

MoveId = Annotated[str, Field(pattern=r"^MV-[0-9]{4}$", description="Move, e.g. MV-2001")]


def booked(move_id: str) -> dict:
    if move_id not in MOVES:
        raise ToolError(f"move {move_id} not found")
    return MOVES[move_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="The price of moving a home of a size", annotations=READ)
def move_quote(home_size: Size) -> dict:
    return {"home_size": home_size, "price": PRICES[home_size]}


@server.tool(description="Book a move of a home size on a day", annotations=WRITE)
def book_move(home_size: Size, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    move_id = f"MV-{next(NEXT)}"
    MOVES[move_id] = {"home_size": home_size, "date": day(date), "packing": False, "status": "booked"}
    return {"move_id": move_id, **MOVES[move_id], "price": PRICES[home_size]}


@server.tool(description="Where a booked move stands", annotations=READ)
def move_status(move_id: MoveId) -> dict:
    return {"move_id": move_id, **booked(move_id)}


@server.tool(description="Move a booked move to another day", annotations=WRITE)
def change_move_date(move_id: MoveId, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    found = booked(move_id)
    if found["status"] == "cancelled":
        raise ToolError(f"move {move_id} is cancelled")
    found["date"] = day(date)
    return {"move_id": move_id, "date": found["date"]}


@server.tool(description="Add packing by the crew to a booked move", annotations=WRITE)
def add_packing(move_id: MoveId) -> dict:
    found = booked(move_id)
    found["packing"] = True
    return {"move_id": move_id, "packing": True}


@server.tool(description="Cancel a booked move",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_move(move_id: MoveId) -> dict:
    found = booked(move_id)
    if found["status"] == "cancelled":
        raise ToolError(f"move {move_id} is already cancelled")
    found["status"] = "cancelled"
    return {"move_id": move_id, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
