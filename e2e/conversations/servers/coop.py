"""MCP server of the coop-desk blind evaluation skill (round 19): a farm supply
co-operative's member order desk. Feed, seed, fertilizer and fencing ordered on
member accounts (credit terms) for delivery to the farm or pickup at a yard.

Deterministic, in-memory, seeded with a handful of members, products and
orders. Ids: members MBR-0000, products SKU-0000, orders CPO-0000."""

from datetime import date
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-coop")

TODAY = date(2026, 12, 1)

MemberId = Annotated[
    str,
    Field(pattern=r"^MBR-[0-9]{4}$", description="Member account number, e.g. MBR-2207"),
]
Sku = Annotated[
    str,
    Field(pattern=r"^SKU-[0-9]{4}$", description="Product item number, e.g. SKU-3316"),
]
OrderId = Annotated[
    str,
    Field(pattern=r"^CPO-[0-9]{4}$", description="Co-op order number, e.g. CPO-8801"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date as YYYY-MM-DD"),
]
Category = Literal["feed", "seed", "fertilizer", "fencing"]
Fulfillment = Literal["delivery", "pickup"]
Yard = Literal["millbrook", "harlan", "cedar_falls"]
CreditReason = Literal[
    "damaged", "short_shipped", "wrong_item", "returned_unopened", "pricing_error"
]

YARDS = {
    "millbrook": "Millbrook yard (main yard, by the elevator on Route 9)",
    "harlan": "Harlan yard (north yard, County Road 14)",
    "cedar_falls": "Cedar Falls yard (south yard, bulk fertilizer and fencing)",
}

MEMBERS: dict[str, dict] = {
    "MBR-2207": {"name": "Hensley Dairy (Dale Hensley)", "credit_limit": 25000.00,
                 "balance": 8412.60, "terms": "net 30"},
    "MBR-3150": {"name": "Ortiz Family Farms (Rosa Ortiz)", "credit_limit": 40000.00,
                 "balance": 31900.00, "terms": "net 30"},
    "MBR-1048": {"name": "Pruitt Cattle Co. (Wes Pruitt)", "credit_limit": 15000.00,
                 "balance": 2275.40, "terms": "net 30"},
    "MBR-4419": {"name": "Bergstrom Sheep & Goat (Anna Bergstrom)", "credit_limit": 5000.00,
                 "balance": 612.35, "terms": "net 15"},
    "MBR-0772": {"name": "Kowalski Grain (Ted Kowalski)", "credit_limit": 60000.00,
                 "balance": 21480.00, "terms": "prepay season, net 60"},
}

PRODUCTS: dict[str, dict] = {
    "SKU-3316": {"name": "16% Dairy Pellet", "category": "feed", "unit": "50 lb bag", "price": 14.85},
    "SKU-3320": {"name": "Calf Starter 18%", "category": "feed", "unit": "50 lb bag", "price": 19.40},
    "SKU-3402": {"name": "Layer Crumble 16%", "category": "feed", "unit": "50 lb bag", "price": 17.25},
    "SKU-3510": {"name": "Sheep & Goat Mineral", "category": "feed", "unit": "25 lb bag", "price": 24.90},
    "SKU-3650": {"name": "Beef Grower Ration (bulk)", "category": "feed", "unit": "ton", "price": 365.00},
    "SKU-4471": {"name": "Alfalfa Seed, Vernal", "category": "seed", "unit": "50 lb bag", "price": 289.00},
    "SKU-4480": {"name": "Orchardgrass Seed", "category": "seed", "unit": "50 lb bag", "price": 168.00},
    "SKU-4512": {"name": "Seed Corn 108-day", "category": "seed", "unit": "80K unit", "price": 298.00},
    "SKU-4530": {"name": "Soybean Seed", "category": "seed", "unit": "140K unit", "price": 62.00},
    "SKU-5100": {"name": "Urea 46-0-0 (bulk)", "category": "fertilizer", "unit": "ton", "price": 610.00},
    "SKU-5140": {"name": "Potash 0-0-60 (bulk)", "category": "fertilizer", "unit": "ton", "price": 455.00},
    "SKU-5210": {"name": "19-19-19 Fertilizer", "category": "fertilizer", "unit": "50 lb bag", "price": 32.50},
    "SKU-5300": {"name": "Pelletized Lime", "category": "fertilizer", "unit": "40 lb bag", "price": 7.95},
    "SKU-6010": {"name": "Steel T-Post 6 ft", "category": "fencing", "unit": "each", "price": 6.49},
    "SKU-6025": {"name": "Woven Wire Field Fence 330 ft", "category": "fencing", "unit": "roll", "price": 219.00},
    "SKU-6040": {"name": "High-Tensile Wire 12.5 ga 4000 ft", "category": "fencing", "unit": "coil", "price": 142.00},
    "SKU-6102": {"name": "Barbed Wire 4-Point 1320 ft", "category": "fencing", "unit": "roll", "price": 89.95},
    "SKU-6210": {"name": "Treated Corner Post 8 ft x 6 in", "category": "fencing", "unit": "each", "price": 24.75},
}


def _order(member, sku, qty, fulfillment, when, yard=None, status="scheduled"):
    return {"member_id": member, "sku": sku, "quantity": qty, "fulfillment": fulfillment,
            "date": when, "yard": yard, "status": status,
            "total": round(PRODUCTS[sku]["price"] * qty, 2), "credited": 0.0}


ORDERS: dict[str, dict] = {
    "CPO-8778": _order("MBR-0772", "SKU-5140", 20, "delivery", "2026-11-12", status="delivered"),
    "CPO-8790": _order("MBR-1048", "SKU-6102", 10, "delivery", "2026-11-20", status="delivered"),
    "CPO-8791": _order("MBR-3150", "SKU-5100", 15, "delivery", "2026-11-18", status="delivered"),
    "CPO-8792": _order("MBR-2207", "SKU-6102", 4, "delivery", "2026-11-19", status="delivered"),
    "CPO-8795": _order("MBR-2207", "SKU-3320", 10, "pickup", "2026-11-24", "millbrook", "picked_up"),
    "CPO-8796": _order("MBR-4419", "SKU-3320", 10, "pickup", "2026-11-25", "harlan", "picked_up"),
    "CPO-8801": _order("MBR-2207", "SKU-3316", 60, "delivery", "2026-12-03"),
    "CPO-8802": _order("MBR-3150", "SKU-5100", 12, "delivery", "2026-12-08"),
    "CPO-8803": _order("MBR-0772", "SKU-5140", 20, "delivery", "2026-12-02"),
    "CPO-8804": _order("MBR-4419", "SKU-3510", 6, "delivery", "2026-12-04"),
    "CPO-8805": _order("MBR-1048", "SKU-6025", 10, "delivery", "2026-12-03"),
    "CPO-8806": _order("MBR-2207", "SKU-3402", 15, "pickup", "2026-12-05", "millbrook"),
    "CPO-8807": _order("MBR-3150", "SKU-4512", 40, "delivery", "2026-12-10"),
    "CPO-8808": _order("MBR-0772", "SKU-6010", 150, "pickup", "2026-12-07", "harlan"),
    "CPO-8809": _order("MBR-4419", "SKU-3402", 8, "pickup", "2026-12-02", "harlan"),
    "CPO-8810": _order("MBR-1048", "SKU-5300", 30, "delivery", "2026-12-09"),
}
NEXT_ORDER = [8811]
CREDIT_MEMOS: dict[str, dict] = {}
NEXT_MEMO = [301]


def _member(member_id: str) -> dict:
    if member_id not in MEMBERS:
        raise ToolError(f"No member account {member_id}. Check the member number on the statement.")
    return MEMBERS[member_id]


def _get_order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"No order {order_id} on file.")
    return ORDERS[order_id]


def _date(value: str, what: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{what} {value} is not a real date (YYYY-MM-DD).") from None
    if day < TODAY:
        raise ToolError(f"{what} {value} is in the past; today is {TODAY.isoformat()}.")
    if day.weekday() == 6:
        raise ToolError(f"{what} {value} is a Sunday; the yards and trucks don't run on Sundays.")
    return day


def _open_to_buy(member_id: str) -> float:
    m = MEMBERS[member_id]
    return round(m["credit_limit"] - m["balance"], 2)


def _view(order_id: str) -> dict:
    o = ORDERS[order_id]
    p = PRODUCTS[o["sku"]]
    view = {"order_id": order_id, "member_id": o["member_id"],
            "member": MEMBERS[o["member_id"]]["name"], "sku": o["sku"],
            "product": p["name"], "quantity": o["quantity"], "unit": p["unit"],
            "fulfillment": o["fulfillment"], "date": o["date"], "status": o["status"],
            "total": o["total"], "credited": o["credited"]}
    if o["yard"]:
        view["yard"] = YARDS[o["yard"]]
    return view


@server.tool(
    description="Member account summary: name, credit limit, balance owed, open-to-buy "
    "(credit still available), payment terms, and the member's orders with their status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_member_account(member_id: MemberId) -> dict:
    m = _member(member_id)
    orders = [_view(oid) for oid, o in ORDERS.items() if o["member_id"] == member_id]
    return {"member_id": member_id, "name": m["name"], "credit_limit": m["credit_limit"],
            "balance": m["balance"], "open_to_buy": _open_to_buy(member_id),
            "terms": m["terms"], "orders": orders}


@server.tool(
    description="The co-op's catalogue for one category (feed, seed, fertilizer or fencing): "
    "item numbers, names, units and member prices.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def list_products(category: Category) -> dict:
    items = [{"sku": sku, **{k: v for k, v in p.items() if k != "category"}}
             for sku, p in PRODUCTS.items() if p["category"] == category]
    return {"category": category, "products": items}


@server.tool(
    description="One order: member, product, quantity, delivery or pickup (and yard), "
    "date, status (scheduled, delivered, picked_up, cancelled), total and credits.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_order(order_id: OrderId) -> dict:
    _get_order(order_id)
    view = _view(order_id)
    view["credit_memos"] = [dict(memo_id=k, **v) for k, v in CREDIT_MEMOS.items()
                            if v["order_id"] == order_id]
    return view


@server.tool(
    description="Place an order on a member's account: a product by item number and a "
    "quantity in its unit, delivered to the member's farm or picked up at a yard on a date. "
    "A pickup needs the yard. Charged to the account on the member's terms.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def place_order(
    member_id: MemberId,
    sku: Sku,
    quantity: Annotated[int, Field(ge=1, le=5000, description="How many, in the product's unit")],
    fulfillment: Fulfillment,
    date: IsoDate,
    yard: Yard | None = None,
) -> dict:
    _member(member_id)
    if sku not in PRODUCTS:
        raise ToolError(f"No product {sku} in the catalogue.")
    _date(date, "Date")
    if fulfillment == "pickup" and yard is None:
        raise ToolError("A pickup order needs the yard: millbrook, harlan or cedar_falls.")
    if fulfillment == "delivery" and yard is not None:
        raise ToolError("A delivery goes to the member's farm; leave the yard out.")
    total = round(PRODUCTS[sku]["price"] * quantity, 2)
    if total > _open_to_buy(member_id):
        raise ToolError(f"Order total ${total:,.2f} is over the account's open-to-buy "
                        f"${_open_to_buy(member_id):,.2f}; the member must pay down the balance first.")
    order_id = f"CPO-{NEXT_ORDER[0]}"
    NEXT_ORDER[0] += 1
    ORDERS[order_id] = _order(member_id, sku, quantity, fulfillment, date, yard)
    MEMBERS[member_id]["balance"] = round(MEMBERS[member_id]["balance"] + total, 2)
    return {"placed": True, **_view(order_id)}


@server.tool(
    description="Change a scheduled order: its quantity, its date, or switch between "
    "delivery and pickup (a pickup needs the yard). Give only what changes.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def change_order(
    order_id: OrderId,
    quantity: Annotated[int | None, Field(ge=1, le=5000)] = None,
    date: Annotated[str | None, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")] = None,
    fulfillment: Fulfillment | None = None,
    yard: Yard | None = None,
) -> dict:
    o = _get_order(order_id)
    if o["status"] != "scheduled":
        raise ToolError(f"Order {order_id} is {o['status']}; only scheduled orders can be changed.")
    if quantity is None and date is None and fulfillment is None and yard is None:
        raise ToolError("Nothing to change: give a quantity, a date, delivery/pickup or a yard.")
    new_fulfillment = fulfillment or o["fulfillment"]
    new_yard = yard if yard is not None else (o["yard"] if new_fulfillment == "pickup" else None)
    if new_fulfillment == "pickup" and new_yard is None:
        raise ToolError("Switching to pickup needs the yard: millbrook, harlan or cedar_falls.")
    if new_fulfillment == "delivery":
        if yard is not None:
            raise ToolError("A delivery goes to the member's farm; leave the yard out.")
        new_yard = None
    if date is not None:
        _date(date, "Date")
    if quantity is not None:
        new_total = round(PRODUCTS[o["sku"]]["price"] * quantity, 2)
        if new_total - o["total"] > _open_to_buy(o["member_id"]):
            raise ToolError("The larger quantity is over the account's open-to-buy.")
        MEMBERS[o["member_id"]]["balance"] = round(
            MEMBERS[o["member_id"]]["balance"] + new_total - o["total"], 2)
        o["quantity"], o["total"] = quantity, new_total
    if date is not None:
        o["date"] = date
    o["fulfillment"], o["yard"] = new_fulfillment, new_yard
    return {"changed": True, **_view(order_id)}


@server.tool(
    description="Cancel a scheduled order and take its charge off the member's account.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def cancel_order(order_id: OrderId) -> dict:
    o = _get_order(order_id)
    if o["status"] == "cancelled":
        return {"cancelled": True, **_view(order_id)}
    if o["status"] != "scheduled":
        raise ToolError(f"Order {order_id} is already {o['status']}; ask for a credit instead.")
    o["status"] = "cancelled"
    m = MEMBERS[o["member_id"]]
    m["balance"] = round(m["balance"] - o["total"], 2)
    return {"cancelled": True, **_view(order_id)}


@server.tool(
    description="Issue a credit memo against a delivered or picked-up order (damaged goods, "
    "short shipment, wrong item, unopened return, pricing error); the amount comes off the "
    "member's balance. The total credited can't exceed the order total.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def issue_credit_memo(
    order_id: OrderId,
    amount: Annotated[float, Field(gt=0, le=100000, description="Dollars to credit")],
    reason: CreditReason,
) -> dict:
    o = _get_order(order_id)
    if o["status"] not in ("delivered", "picked_up"):
        raise ToolError(f"Order {order_id} is {o['status']}; credits are only for delivered "
                        "or picked-up orders (change or cancel a scheduled one instead).")
    amount = round(amount, 2)
    if round(o["credited"] + amount, 2) > o["total"]:
        raise ToolError(f"${amount:,.2f} would credit more than the order's ${o['total']:,.2f} "
                        f"(already credited ${o['credited']:,.2f}).")
    memo_id = f"CM-{NEXT_MEMO[0]}"
    NEXT_MEMO[0] += 1
    CREDIT_MEMOS[memo_id] = {"order_id": order_id, "amount": amount, "reason": reason}
    o["credited"] = round(o["credited"] + amount, 2)
    m = MEMBERS[o["member_id"]]
    m["balance"] = round(m["balance"] - amount, 2)
    return {"memo_id": memo_id, "order_id": order_id, "amount": amount, "reason": reason,
            "member_balance": m["balance"]}


@server.tool(
    description="Set a member's credit limit (credit committee only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def raise_credit_limit(
    member_id: MemberId,
    new_limit: Annotated[float, Field(gt=0, le=1000000)],
) -> dict:
    m = _member(member_id)
    m["credit_limit"] = round(new_limit, 2)
    return {"member_id": member_id, "credit_limit": m["credit_limit"],
            "open_to_buy": _open_to_buy(member_id)}


if __name__ == "__main__":
    run(server)
