"""A food delivery app's support desk: an MCP server for a blind evaluation
set (blind/food-delivery.conv), written after the sixth blind round's score
and the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; cancellations, tips, refunds and reorders change state.
Deterministic: new orders count from FD-9000."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-delivery")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

ORDERS = {f"FD-88{n:02d}": {"restaurant": "Luigi's", "status": "on the way", "eta_minutes": 12, "tips": 0.0}
          for n in range(1, 11)}
NEXT = itertools.count(9000)

OrderId = Annotated[str, Field(pattern=r"^FD-[0-9]{4}$", description="Order, e.g. FD-8801")]


def order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"order {order_id} not found")
    return ORDERS[order_id]


@server.tool(description="Where an order is and when it arrives", annotations=READ)
def track_order(order_id: OrderId) -> dict:
    return {"order_id": order_id, **order(order_id)}


@server.tool(description="Cancel an order", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_order(order_id: OrderId) -> dict:
    found = order(order_id)
    if found["status"] == "cancelled":
        raise ToolError(f"order {order_id} is already cancelled")
    found["status"] = "cancelled"
    return {"order_id": order_id, "status": "cancelled"}


@server.tool(description="Add a tip for the driver", annotations=WRITE)
def add_tip(order_id: OrderId, amount: Annotated[float, Field(gt=0, le=200)]) -> dict:
    found = order(order_id)
    found["tips"] += amount
    return {"order_id": order_id, "tips": found["tips"], "status": "tip added"}


@server.tool(description="Refund part of an order for a problem with it", annotations=WRITE)
def report_problem(order_id: OrderId, problem: Literal["missing item", "wrong order", "late", "cold food"],
                   amount: Annotated[float, Field(gt=0)]) -> dict:
    order(order_id)
    return {"order_id": order_id, "problem": problem, "refunded": amount, "status": "refunded"}


@server.tool(description="Place the same order again", annotations=WRITE)
def reorder(order_id: OrderId) -> dict:
    found = order(order_id)
    new_id = f"FD-{next(NEXT)}"
    ORDERS[new_id] = {**found, "status": "placed", "tips": 0.0}
    return {"order_id": new_id, "from": order_id, "status": "placed"}


@server.tool(description="The delivery fee to a zip code", annotations=READ)
def delivery_fee(zip: Annotated[str, Field(pattern=r"^[0-9]{5}$")]) -> dict:
    return {"zip": zip, "fee": 2.99 if zip.startswith("94") else 4.99}


if __name__ == "__main__":
    run(server)
