"""A dry cleaner's pickup and delivery desk: an MCP server for a blind
evaluation set (blind/dry-cleaning.conv), written after the seventh blind
round's score and the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; pickups, rushes, cancellations and claims change state.
Deterministic: new pickups count from DC-6000."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-cleaners")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PRICES = {"shirt": 4.5, "suit": 18.0, "dress": 14.0, "coat": 22.0}
ORDERS = {f"DC-500{n}": {"status": "cleaning", "ready": "2026-12-03", "express": False} for n in range(1, 10)}
ORDERS["DC-5001"]["status"] = "ready"
NEXT = itertools.count(6000)

Ticket = Annotated[str, Field(pattern=r"^DC-[0-9]{4}$", description="Ticket, e.g. DC-5001")]


def order(ticket: str) -> dict:
    if ticket not in ORDERS:
        raise ToolError(f"ticket {ticket} not found")
    return ORDERS[ticket]


@server.tool(description="Schedule a pickup at the customer's home", annotations=WRITE)
def schedule_pickup(date: Annotated[str, Field(description="YYYY-MM-DD")],
                    slot: Literal["morning", "afternoon", "evening"]) -> dict:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    ticket = f"DC-{next(NEXT)}"
    ORDERS[ticket] = {"status": "pickup scheduled", "ready": "", "express": False}
    return {"ticket": ticket, "date": date, "slot": slot, "status": "pickup scheduled"}


@server.tool(description="Whether a cleaning order is ready", annotations=READ)
def order_status(ticket: Ticket) -> dict:
    return {"ticket": ticket, **order(ticket)}


@server.tool(description="The price of cleaning an item", annotations=READ)
def price_check(item: Literal["shirt", "suit", "dress", "coat"]) -> dict:
    return {"item": item, "price": PRICES[item]}


@server.tool(description="Make an order express (ready next day)", annotations=WRITE)
def rush_order(ticket: Ticket) -> dict:
    found = order(ticket)
    found["express"] = True
    found["ready"] = "2026-11-28"
    return {"ticket": ticket, "ready": found["ready"], "status": "express"}


@server.tool(description="Cancel a scheduled pickup", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_pickup(ticket: Ticket) -> dict:
    found = order(ticket)
    if found["status"] == "cancelled":
        raise ToolError(f"ticket {ticket} is already cancelled")
    found["status"] = "cancelled"
    return {"ticket": ticket, "status": "cancelled"}


@server.tool(description="Open a damage claim on an order", annotations=WRITE)
def report_damage(ticket: Ticket, amount: Annotated[float, Field(gt=0)]) -> dict:
    order(ticket)
    return {"ticket": ticket, "amount": amount, "status": "claim opened"}


if __name__ == "__main__":
    run(server)
