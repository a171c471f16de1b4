"""A self-storage site's office: an MCP server for a blind evaluation set
(blind/self-storage.conv), written after the eighth blind round's score and
the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; rentals, payments, code resets and move-outs change
state. Deterministic: new rentals count from SU-200."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-storage")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Size = Literal["small", "medium", "large"]
FREE = {"small": 4, "medium": 2, "large": 0}
RENT = {"small": 59.0, "medium": 99.0, "large": 149.0}
UNITS = {f"SU-10{n}": {"size": "medium", "balance": 99.0 * (n % 3), "status": "rented"} for n in range(1, 10)}
NEXT = itertools.count(200)
CODES = itertools.count(4711, 137)

UnitId = Annotated[str, Field(pattern=r"^SU-[0-9]{3}$", description="Unit, e.g. SU-101")]


def unit(unit_id: str) -> dict:
    if unit_id not in UNITS:
        raise ToolError(f"unit {unit_id} not found")
    return UNITS[unit_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="How many units of a size are free, and their monthly rent", annotations=READ)
def unit_availability(size: Size) -> dict:
    return {"size": size, "free": FREE[size], "monthly_rent": RENT[size]}


@server.tool(description="Rent a unit of a size from a start date", annotations=WRITE)
def rent_unit(size: Size, start_date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    if FREE[size] == 0:
        raise ToolError(f"no {size} unit is free")
    FREE[size] -= 1
    unit_id = f"SU-{next(NEXT)}"
    UNITS[unit_id] = {"size": size, "balance": RENT[size], "status": "rented", "start": day(start_date)}
    return {"unit_id": unit_id, "size": size, "start_date": start_date, "monthly_rent": RENT[size]}


@server.tool(description="What is owed on a unit", annotations=READ)
def account_balance(unit_id: UnitId) -> dict:
    found = unit(unit_id)
    return {"unit_id": unit_id, "balance": found["balance"], "status": found["status"]}


@server.tool(description="Take a payment towards a unit's balance", annotations=WRITE)
def pay_balance(unit_id: UnitId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = unit(unit_id)
    found["balance"] = round(found["balance"] - amount, 2)
    return {"unit_id": unit_id, "paid": amount, "balance": found["balance"]}


@server.tool(description="Issue a new gate access code for a unit", annotations=WRITE)
def reset_access_code(unit_id: UnitId) -> dict:
    unit(unit_id)
    return {"unit_id": unit_id, "access_code": str(next(CODES))}


@server.tool(description="Schedule the end of a rental",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def move_out(unit_id: UnitId, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    found = unit(unit_id)
    if found["status"] == "moving out":
        raise ToolError(f"unit {unit_id} already has a move-out scheduled")
    found["status"] = "moving out"
    return {"unit_id": unit_id, "move_out": day(date), "status": "moving out"}


if __name__ == "__main__":
    run(server)
