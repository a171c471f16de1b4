"""MCP server of the catering-desk blind evaluation skill (round 15): the
catering office of the Lakeshore Conference Center. Organisers order food for
their events, change headcounts, add extras, note dietary needs, check orders
and invoices, and cancel. Deterministic, in-memory, seeded with a handful of
orders; "today" is pinned to 2026-12-01 (America/Chicago)."""

import zlib
from copy import deepcopy
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-catering")

TODAY = date(2026, 12, 1)

OrderId = Annotated[
    str,
    Field(pattern=r"^CTR-[0-9]{4}$", description="Catering order number, e.g. CTR-4410"),
]
RoomId = Literal["RM-01", "RM-02", "RM-03", "RM-04", "RM-05", "RM-06"]
Menu = Literal[
    "continental_breakfast",
    "full_breakfast",
    "coffee_break",
    "working_lunch",
    "hot_buffet_lunch",
    "canape_reception",
    "plated_dinner",
]
Extra = Literal[
    "coffee_refresh",
    "fruit_platter",
    "cheese_board",
    "pastry_basket",
    "cookies",
    "bottled_water",
    "soft_drinks",
    "celebration_cake",
]
Diet = Literal[
    "vegetarian",
    "vegan",
    "gluten_free",
    "dairy_free",
    "nut_allergy",
    "halal",
    "kosher",
]

ROOMS = {
    "RM-01": {"name": "Harbour Hall", "floor": "ground floor", "capacity": 400},
    "RM-02": {"name": "The Atrium", "floor": "ground floor", "capacity": 200},
    "RM-03": {"name": "Lighthouse Suite", "floor": "2nd floor", "capacity": 80},
    "RM-04": {"name": "Boardroom", "floor": "3rd floor", "capacity": 30},
    "RM-05": {"name": "Skyline Lounge", "floor": "12th floor", "capacity": 150},
    "RM-06": {"name": "Quarry Room", "floor": "lower level", "capacity": 90},
}

MENUS = {
    "continental_breakfast": ("Continental breakfast (pastries, fruit, yoghurt, coffee and tea)", "14.50"),
    "full_breakfast": ("Full hot breakfast (eggs, bacon, potatoes, coffee and tea)", "19.00"),
    "coffee_break": ("Coffee break (coffee, tea, biscuits)", "6.50"),
    "working_lunch": ("Working lunch (sandwiches, wraps, salads, drop-off)", "18.00"),
    "hot_buffet_lunch": ("Hot buffet lunch (two mains, sides, dessert)", "26.00"),
    "canape_reception": ("Canape reception (passed canapes, drinks service)", "32.00"),
    "plated_dinner": ("Plated three-course dinner, seated", "58.00"),
}

EXTRAS = {
    "coffee_refresh": ("Coffee and tea refresh (urn, serves 20)", "45.00"),
    "fruit_platter": ("Fresh fruit platter (serves 10)", "38.00"),
    "cheese_board": ("Cheese board (serves 12)", "52.00"),
    "pastry_basket": ("Pastry basket (12 pastries)", "30.00"),
    "cookies": ("Cookie, each", "1.50"),
    "bottled_water": ("Bottled water, each", "2.50"),
    "soft_drinks": ("Soft drink can, each", "2.75"),
    "celebration_cake": ("Celebration cake (serves 30)", "85.00"),
}

SERVICE_RATE = Decimal("0.18")
TAX_RATE = Decimal("0.1025")


def _order(oid, room, day, time, menu, headcount, status="confirmed", organiser="", event="",
           extras=None, dietary=None, invoice_status=None, cancelled_on=None):
    return {
        "order_id": oid,
        "room": room,
        "delivery_date": day,
        "delivery_time": time,
        "menu": menu,
        "headcount": headcount,
        "status": status,
        "organiser": organiser,
        "event": event,
        "extras": dict(extras or {}),
        "dietary": dict(dietary or {}),
        "invoice_status": invoice_status,
        "cancelled_on": cancelled_on,
    }


SEED = [
    _order("CTR-4377", "RM-01", "2026-11-18", "10:00", "coffee_break", 150, "delivered",
           "Priya Raman", "Great Lakes Dental Congress", {"pastry_basket": 6}, invoice_status="paid"),
    _order("CTR-4391", "RM-03", "2026-11-24", "12:30", "working_lunch", 40, "delivered",
           "Tom Okafor", "Regional Sales Kickoff", {"fruit_platter": 2}, {"vegetarian": 6},
           invoice_status="issued"),
    _order("CTR-4408", "RM-02", "2026-12-02", "10:30", "coffee_break", 80, "cancelled",
           "Maria Lindgren", "Open Data Meetup", cancelled_on="2026-11-30"),
    _order("CTR-4415", "RM-03", "2026-12-04", "08:00", "continental_breakfast", 30, "confirmed",
           "Helen Cho", "Board Strategy Day"),
    _order("CTR-4432", "RM-05", "2026-12-10", "18:30", "canape_reception", 120, "confirmed",
           "Daniel Brooks", "Brooks & Vale Client Evening"),
    _order("CTR-4450", "RM-04", "2026-12-02", "12:00", "working_lunch", 12, "confirmed",
           "Helen Cho", "Audit Committee"),
    _order("CTR-4455", "RM-04", "2026-12-11", "12:30", "working_lunch", 14, "confirmed",
           "Sam Whitaker", "Partners Meeting"),
    _order("CTR-4463", "RM-01", "2026-12-15", "19:00", "plated_dinner", 140, "confirmed",
           "Grace Mensah", "Lakeshore Hospital Foundation Gala", {"celebration_cake": 1}),
    _order("CTR-4468", "RM-05", "2026-12-17", "18:00", "canape_reception", 90, "confirmed",
           "Daniel Brooks", "Brooks & Vale Holiday Drinks"),
    _order("CTR-4473", "RM-01", "2026-12-03", "12:30", "hot_buffet_lunch", 110, "confirmed",
           "Dana Whitfield", "Midwest Logistics Forum"),
    _order("CTR-4481", "RM-06", "2026-12-08", "15:00", "coffee_break", 20, "confirmed",
           "Leo Fischer", "Speakers' Green Room"),
    _order("CTR-4486", "RM-06", "2026-12-08", "12:00", "hot_buffet_lunch", 60, "confirmed",
           "Leo Fischer", "Future of Freight Summit"),
    _order("CTR-4490", "RM-02", "2026-12-09", "15:00", "coffee_break", 100, "confirmed",
           "Maria Lindgren", "Civic Tech Workshop"),
    _order("CTR-4496", "RM-03", "2026-12-07", "15:30", "coffee_break", 45, "confirmed",
           "Ana Sousa", "UX Research Roundtable"),
    _order("CTR-4502", "RM-05", "2026-12-12", "19:00", "plated_dinner", 60, "confirmed",
           "Ravi Menon", "Menon Family Celebration"),
    _order("CTR-4511", "RM-06", "2026-12-14", "12:00", "working_lunch", 60, "confirmed",
           "Ana Sousa", "Design Systems Day"),
    _order("CTR-4519", "RM-02", "2026-12-16", "12:30", "working_lunch", 45, "confirmed",
           "Tom Okafor", "Channel Partners Briefing"),
    _order("CTR-4527", "RM-04", "2026-12-04", "08:30", "full_breakfast", 10, "confirmed",
           "Sam Whitaker", "Executive Breakfast"),
    _order("CTR-4532", "RM-01", "2026-12-18", "13:00", "hot_buffet_lunch", 130, "confirmed",
           "Grace Mensah", "Volunteer Thank-You Lunch"),
    _order("CTR-4538", "RM-02", "2026-12-03", "17:30", "canape_reception", 75, "confirmed",
           "Ravi Menon", "Startup Showcase"),
    _order("CTR-4545", "RM-02", "2026-12-10", "17:00", "canape_reception", 150, "confirmed",
           "Chloe Park", "Aurora Headphones Launch"),
]

ORDERS: dict[str, dict] = {o["order_id"]: deepcopy(o) for o in SEED}
CREDITS: list[dict] = []


def _money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _get(order_id: str) -> dict:
    order = ORDERS.get(order_id)
    if order is None:
        raise ToolError(f"No catering order {order_id}. Check the order number (CTR- and four digits).")
    return order


def _open(order: dict, action: str) -> None:
    if order["status"] == "cancelled":
        raise ToolError(f"Order {order['order_id']} was cancelled on {order['cancelled_on']}; it cannot be {action}.")
    if order["status"] == "delivered":
        raise ToolError(f"Order {order['order_id']} was delivered on {order['delivery_date']}; it cannot be {action}.")


def _view(order: dict) -> dict:
    room = ROOMS[order["room"]]
    return {
        "order_id": order["order_id"],
        "status": order["status"],
        "event": order["event"],
        "organiser": order["organiser"],
        "room": order["room"],
        "room_name": room["name"],
        "delivery_date": order["delivery_date"],
        "delivery_time": order["delivery_time"],
        "menu": order["menu"],
        "menu_description": MENUS[order["menu"]][0],
        "headcount": order["headcount"],
        "extras": [
            {"item": k, "description": EXTRAS[k][0], "quantity": q} for k, q in order["extras"].items()
        ],
        "dietary": [{"diet": k, "guests": n} for k, n in order["dietary"].items()],
        "cancelled_on": order["cancelled_on"],
    }


def _invoice(order: dict) -> dict:
    invoice_id = "INV-" + order["order_id"][4:]
    if order["status"] == "cancelled":
        return {
            "invoice_id": invoice_id,
            "order_id": order["order_id"],
            "status": "void",
            "note": "Order cancelled before delivery; nothing is charged.",
            "total": "0.00",
            "currency": "USD",
        }
    label, per_head = MENUS[order["menu"]]
    lines = [{
        "description": label,
        "quantity": order["headcount"],
        "unit_price": per_head,
        "amount": _money(Decimal(per_head) * order["headcount"]),
    }]
    for item, qty in order["extras"].items():
        text, unit = EXTRAS[item]
        lines.append({"description": text, "quantity": qty, "unit_price": unit,
                      "amount": _money(Decimal(unit) * qty)})
    subtotal = sum(Decimal(line["amount"]) for line in lines)
    service = subtotal * SERVICE_RATE
    tax = (subtotal + service) * TAX_RATE
    credits = sum((Decimal(c["amount"]) for c in CREDITS if c["order_id"] == order["order_id"]), Decimal(0))
    total = subtotal + service + tax - credits
    status = order["invoice_status"] or "estimate"
    return {
        "invoice_id": invoice_id,
        "order_id": order["order_id"],
        "status": status,
        "lines": lines,
        "subtotal": _money(subtotal),
        "service_charge_18pct": _money(service),
        "sales_tax_10_25pct": _money(tax),
        "credits": _money(credits),
        "total": _money(total),
        "currency": "USD",
        "note": "Estimate: the final invoice is issued after delivery." if status == "estimate" else "",
    }


def _new_order_id(room: str, day: str, time: str, menu: str, headcount: int) -> str:
    # Order numbers derive from the order's details, so a resubmitted order
    # is recognised instead of being booked twice.
    key = f"{room}|{day}|{time}|{menu}|{headcount}".encode()
    return f"CTR-{5000 + zlib.crc32(key) % 5000:04d}"


@server.tool(
    description="Look up a catering order: event, room, delivery date and time, menu, headcount, "
    "extras, dietary needs and status (confirmed, cancelled, delivered).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_order(order_id: OrderId) -> dict:
    return _view(_get(order_id))


@server.tool(
    description="Place a new catering order for an event at the venue. Returns the new order number.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def create_order(
    room: Annotated[RoomId, Field(description="Room code: RM-01 Harbour Hall, RM-02 The Atrium, "
                                  "RM-03 Lighthouse Suite, RM-04 Boardroom, RM-05 Skyline Lounge, RM-06 Quarry Room")],
    delivery_date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")],
    delivery_time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, 24-hour")],
    menu: Annotated[Menu, Field(description="continental_breakfast (pastries, fruit, yoghurt), full_breakfast (hot), "
                                "coffee_break (coffee, tea, biscuits), working_lunch (sandwiches, wraps, salads), "
                                "hot_buffet_lunch, canape_reception (drinks with canapes), plated_dinner (seated, three courses)")],
    headcount: Annotated[int, Field(ge=1, le=1000, description="Number of guests to cater for")],
) -> dict:
    try:
        day = date.fromisoformat(delivery_date)
    except ValueError:
        raise ToolError(f"{delivery_date} is not a valid date (YYYY-MM-DD).") from None
    if day < TODAY:
        raise ToolError(f"{delivery_date} is in the past; catering can only be ordered for today or later.")
    capacity = ROOMS[room]["capacity"]
    if headcount > capacity:
        raise ToolError(f"{ROOMS[room]['name']} seats at most {capacity}; {headcount} guests will not fit.")
    oid = _new_order_id(room, delivery_date, delivery_time, menu, headcount)
    ORDERS[oid] = _order(oid, room, delivery_date, delivery_time, menu, headcount)
    return _view(ORDERS[oid])


@server.tool(
    description="Change the number of guests on an existing catering order (the new total headcount).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def change_headcount(
    order_id: OrderId,
    headcount: Annotated[int, Field(ge=1, le=1000, description="The new total number of guests")],
) -> dict:
    order = _get(order_id)
    _open(order, "changed")
    capacity = ROOMS[order["room"]]["capacity"]
    if headcount > capacity:
        raise ToolError(f"{ROOMS[order['room']]['name']} seats at most {capacity}; {headcount} guests will not fit.")
    previous = order["headcount"]
    order["headcount"] = headcount
    return {"previous_headcount": previous, **_view(order)}


@server.tool(
    description="Add extra items to an existing catering order (platters, drinks, cookies, cake, coffee refresh).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def add_item(
    order_id: OrderId,
    item: Annotated[Extra, Field(description="coffee_refresh (urn, serves 20), fruit_platter (serves 10), cheese_board "
                                 "(serves 12), pastry_basket (12 pastries), cookies (each), bottled_water (each), "
                                 "soft_drinks (each can), celebration_cake (serves 30)")],
    quantity: Annotated[int, Field(ge=1, le=500, description="How many units (platters, bottles, cookies, ...)")],
) -> dict:
    order = _get(order_id)
    _open(order, "changed")
    order["extras"][item] = order["extras"].get(item, 0) + quantity
    return _view(order)


@server.tool(
    description="Record that a number of guests on an order have a dietary requirement, so the kitchen prepares "
    "separate meals for them.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def add_dietary_need(
    order_id: OrderId,
    diet: Annotated[Diet, Field(description="The requirement: vegetarian, vegan, gluten_free, dairy_free, "
                                "nut_allergy, halal or kosher")],
    guests: Annotated[int, Field(ge=1, le=1000, description="How many guests have this requirement")],
) -> dict:
    order = _get(order_id)
    _open(order, "changed")
    if guests > order["headcount"]:
        raise ToolError(f"Order {order_id} is for {order['headcount']} guests; {guests} cannot need {diet} meals.")
    order["dietary"][diet] = guests
    return _view(order)


@server.tool(
    description="Cancel a catering order that has not been delivered yet.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_order(order_id: OrderId) -> dict:
    order = _get(order_id)
    _open(order, "cancelled")
    order["status"] = "cancelled"
    order["cancelled_on"] = TODAY.isoformat()
    return _view(order)


@server.tool(
    description="Show the invoice of an order: lines, service charge, tax, credits, total and whether it is an "
    "estimate, issued, paid or void.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_invoice(order_id: OrderId) -> dict:
    return _invoice(_get(order_id))


@server.tool(
    description="Issue a credit note against an order's invoice (finance team only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def issue_credit(
    order_id: OrderId,
    amount: Annotated[float, Field(gt=0, description="Credit amount in USD")],
    reason: str,
) -> dict:
    order = _get(order_id)
    if order["invoice_status"] not in ("issued", "paid"):
        raise ToolError(f"Order {order_id} has no issued invoice to credit.")
    credit = {"order_id": order_id, "amount": _money(Decimal(str(amount))), "reason": reason}
    CREDITS.append(credit)
    return {"credit": credit, "invoice": _invoice(order)}


if __name__ == "__main__":
    run(server)
