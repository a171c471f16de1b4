"""A print shop's counter: an MCP server for a blind evaluation set
(blind/print-shop.conv), written after the eighth blind round's score and the
changes after it, before any tuning on it. Quotes, order lookups and hours say
`readOnlyHint: true`; orders, cancellations and reprints change state.
Deterministic: new orders count from PO-5000."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-printshop")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Product = Literal["business cards", "flyers", "posters", "banners"]
UNIT_PRICE = {"business cards": 0.08, "flyers": 0.25, "posters": 6.0, "banners": 45.0}
ORDERS = {f"PO-100{n}": {"product": "flyers", "quantity": 100 * n, "status": "printing"} for n in range(1, 10)}
ORDERS["PO-1001"]["status"] = "ready for pickup"
NEXT = itertools.count(5000)

OrderId = Annotated[str, Field(pattern=r"^PO-[0-9]{4}$", description="Order, e.g. PO-1001")]
Quantity = Annotated[int, Field(gt=0, le=100000)]


def order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"order {order_id} not found")
    return ORDERS[order_id]


@server.tool(description="The price of printing a quantity of a product", annotations=READ)
def print_quote(product: Product, quantity: Quantity) -> dict:
    return {"product": product, "quantity": quantity, "price": round(UNIT_PRICE[product] * quantity, 2)}


@server.tool(description="Place a print order", annotations=WRITE)
def place_order(product: Product, quantity: Quantity) -> dict:
    order_id = f"PO-{next(NEXT)}"
    ORDERS[order_id] = {"product": product, "quantity": quantity, "status": "printing"}
    return {"order_id": order_id, **ORDERS[order_id], "price": round(UNIT_PRICE[product] * quantity, 2)}


@server.tool(description="Whether a print order is ready for pickup", annotations=READ)
def order_status(order_id: OrderId) -> dict:
    return {"order_id": order_id, **order(order_id)}


@server.tool(description="Cancel a print order",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_order(order_id: OrderId) -> dict:
    found = order(order_id)
    if found["status"] == "cancelled":
        raise ToolError(f"order {order_id} is already cancelled")
    found["status"] = "cancelled"
    return {"order_id": order_id, "status": "cancelled"}


@server.tool(description="Print a faulty order again at no charge", annotations=WRITE)
def reprint_order(order_id: OrderId) -> dict:
    found = order(order_id)
    found["status"] = "reprinting"
    return {"order_id": order_id, "status": "reprinting"}


@server.tool(description="The shop's opening hours", annotations=READ)
def shop_hours() -> dict:
    return {"weekdays": "8:00-19:00", "saturday": "10:00-16:00", "sunday": "closed"}


if __name__ == "__main__":
    run(server)
