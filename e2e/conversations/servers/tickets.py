"""A concert hall's box office: an MCP server for a blind evaluation set
(blind/box-office.conv), written after the sixth blind round's score and the
changes after it, before any tuning on it. Lookups say `readOnlyHint: true`;
purchases, refunds and transfers change state. Deterministic: new orders count
from TK-8000."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-tickets")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

EVENTS = {
    "EV-301": {"name": "Jazz Night", "date": "2026-12-12", "price": 45, "seats_left": 120},
    "EV-302": {"name": "Winter Symphony", "date": "2026-12-19", "price": 60, "seats_left": 300},
    "EV-303": {"name": "Comedy Hour", "date": "2026-12-05", "price": 30, "seats_left": 0},
    "EV-304": {"name": "Rock Arena", "date": "2027-01-09", "price": 75, "seats_left": 800},
    "EV-305": {"name": "Kids Theatre", "date": "2026-12-20", "price": 20, "seats_left": 60},
}
ORDERS = {f"TK-70{n:02d}": {"event": "EV-301", "tickets": 2, "status": "sent", "holder": "buyer"} for n in range(1, 11)}
NEXT = itertools.count(8000)

EventId = Annotated[str, Field(pattern=r"^EV-[0-9]{3}$", description="Event, e.g. EV-301")]
OrderId = Annotated[str, Field(pattern=r"^TK-[0-9]{4}$", description="Order, e.g. TK-7001")]


def order(order_id: str) -> dict:
    found = ORDERS.get(order_id)
    if found is None:
        raise ToolError(f"order {order_id} not found")
    return found


@server.tool(description="An event's name, date, venue, price and seats left", annotations=READ)
def event_info(event_id: EventId) -> dict:
    if event_id not in EVENTS:
        raise ToolError(f"event {event_id} not found")
    return {"event_id": event_id, "venue": "Main Hall", **EVENTS[event_id]}


@server.tool(description="Buy tickets for an event", annotations=WRITE)
def buy_tickets(event_id: EventId, quantity: Annotated[int, Field(ge=1, le=10)],
                section: Literal["floor", "balcony"]) -> dict:
    event = EVENTS.get(event_id)
    if event is None:
        raise ToolError(f"event {event_id} not found")
    if event["seats_left"] < quantity:
        raise ToolError(f"event {event_id} has {event['seats_left']} seats left")
    event["seats_left"] -= quantity
    order_id = f"TK-{next(NEXT)}"
    ORDERS[order_id] = {"event": event_id, "tickets": quantity, "status": "sent", "holder": "buyer"}
    return {"order_id": order_id, "event_id": event_id, "quantity": quantity, "section": section, "status": "sent"}


@server.tool(description="Where a ticket order stands", annotations=READ)
def order_status(order_id: OrderId) -> dict:
    return {"order_id": order_id, **order(order_id)}


@server.tool(description="Refund a ticket order", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def refund_order(order_id: OrderId) -> dict:
    found = order(order_id)
    if found["status"] == "refunded":
        raise ToolError(f"order {order_id} is already refunded")
    found["status"] = "refunded"
    return {"order_id": order_id, "status": "refunded"}


@server.tool(description="Send an order's tickets to another person's email", annotations=WRITE)
def transfer_ticket(order_id: OrderId, email: Annotated[str, Field(description="New holder's email")]) -> dict:
    found = order(order_id)
    if "@" not in email:
        raise ToolError(f"email: {email} is not an email")
    if found["status"] == "refunded":
        raise ToolError(f"order {order_id} is refunded")
    found["holder"] = email
    return {"order_id": order_id, "holder": email, "status": "transferred"}


if __name__ == "__main__":
    run(server)
