"""A bakery's custom cake counter: an MCP server for a blind evaluation set
(blind/cake-bakery.conv), written after the ninth blind round's score and the
changes after it, before any tuning on it. Lookups say `readOnlyHint: true`;
orders, pickup changes and cancellations change state. Deterministic: new
orders count from CK-500."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-bakery")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Flavor = Literal["chocolate", "vanilla", "carrot", "red velvet"]
Size = Literal["small", "medium", "large"]
PRICES = {"small": 28.0, "medium": 42.0, "large": 65.0}
ALLERGENS = {"chocolate": ["gluten", "egg", "milk"], "vanilla": ["gluten", "egg", "milk"],
             "carrot": ["gluten", "egg", "milk", "walnuts"], "red velvet": ["gluten", "egg", "milk", "soy"]}
ORDERS = {f"CK-10{n}": {"flavor": "chocolate", "size": "medium", "pickup_date": f"2026-12-0{n}",
                        "status": "baking"} for n in range(1, 10)}
ORDERS["CK-101"]["status"] = "ready"
NEXT = itertools.count(500)

OrderId = Annotated[str, Field(pattern=r"^CK-[0-9]{3}$", description="Order, e.g. CK-101")]


def order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"order {order_id} not found")
    return ORDERS[order_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="Order a custom cake for a pickup day", annotations=WRITE)
def order_cake(flavor: Flavor, size: Size, pickup_date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    order_id = f"CK-{next(NEXT)}"
    ORDERS[order_id] = {"flavor": flavor, "size": size, "pickup_date": day(pickup_date), "status": "ordered"}
    return {"order_id": order_id, **ORDERS[order_id], "price": PRICES[size]}


@server.tool(description="Whether a cake order is ready", annotations=READ)
def order_status(order_id: OrderId) -> dict:
    return {"order_id": order_id, **order(order_id)}


@server.tool(description="Move a cake order's pickup to another day", annotations=WRITE)
def change_pickup(order_id: OrderId, pickup_date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    found = order(order_id)
    if found["status"] == "cancelled":
        raise ToolError(f"order {order_id} is cancelled")
    found["pickup_date"] = day(pickup_date)
    return {"order_id": order_id, "pickup_date": found["pickup_date"]}


@server.tool(description="Cancel a cake order",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_order(order_id: OrderId) -> dict:
    found = order(order_id)
    if found["status"] == "cancelled":
        raise ToolError(f"order {order_id} is already cancelled")
    found["status"] = "cancelled"
    return {"order_id": order_id, "status": "cancelled"}


@server.tool(description="The price of a cake of a size", annotations=READ)
def cake_price(size: Size) -> dict:
    return {"size": size, "price": PRICES[size]}


@server.tool(description="The allergens in a cake flavor", annotations=READ)
def allergen_info(flavor: Flavor) -> dict:
    return {"flavor": flavor, "allergens": ALLERGENS[flavor]}


if __name__ == "__main__":
    run(server)
