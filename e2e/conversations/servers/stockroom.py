"""Stockroom: the MCP server of the `stock-desk` blind evaluation skill (round 13).

The internal stock and purchasing desk of a manufacturing company with four
sites (Dayton and Toledo plants, the Cincinnati warehouse, the Fort Wayne
service depot). Deterministic, in-memory state seeded with a few items,
suppliers and purchase orders; nothing is persisted.
"""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-stockroom")

Site = Literal["DAY", "TOL", "CIN", "FTW"]
SITE_NAMES = {
    "DAY": "Dayton plant",
    "TOL": "Toledo plant",
    "CIN": "Cincinnati central warehouse",
    "FTW": "Fort Wayne service depot",
}

ItemId = Annotated[str, Field(pattern=r"^ITM-[0-9]{4}$", description="Item number, e.g. ITM-4471")]
SupplierId = Annotated[str, Field(pattern=r"^SUP-[0-9]{3}$", description="Supplier number, e.g. SUP-318")]
PoId = Annotated[str, Field(pattern=r"^PO-[0-9]{5}$", description="Purchase order number, e.g. PO-20417")]
SiteArg = Annotated[
    Site,
    Field(description="Site code: DAY = Dayton plant, TOL = Toledo plant, CIN = Cincinnati central warehouse, FTW = Fort Wayne service depot"),
]

ITEMS = {
    "ITM-4471": {"description": "Hex bolt M8 x 30, zinc plated", "unit": "box of 100"},
    "ITM-2208": {"description": "Ball bearing 6204-2RS", "unit": "each"},
    "ITM-3015": {"description": "Hydraulic hose 1/2 in x 2 m, crimped ends", "unit": "each"},
    "ITM-5120": {"description": "Nitrile gloves, size L", "unit": "box of 50"},
    "ITM-1187": {"description": "Cutting fluid, semi-synthetic", "unit": "20 L drum"},
    "ITM-6642": {"description": "Machine guard panel 600 x 900, blue", "unit": "each"},
    "ITM-6643": {"description": "Machine guard panel 600 x 900, yellow", "unit": "each"},
    "ITM-7730": {"description": "Inductive proximity sensor M12", "unit": "each"},
}

SUPPLIERS = {
    "SUP-210": "Midwest Fastener Supply",
    "SUP-318": "Kessler Bearings",
    "SUP-405": "Apex Hydraulics",
    "SUP-512": "Linden Safety Products",
    "SUP-620": "Ohio Industrial Fluids",
    "SUP-733": "Brenner Automation",
}

#: on-hand quantity of each item at each site
STOCK = {
    "ITM-4471": {"DAY": 85, "TOL": 12, "CIN": 340, "FTW": 20},
    "ITM-2208": {"DAY": 30, "TOL": 64, "CIN": 900, "FTW": 18},
    "ITM-3015": {"DAY": 22, "TOL": 10, "CIN": 150, "FTW": 0},
    "ITM-5120": {"DAY": 40, "TOL": 25, "CIN": 210, "FTW": 6},
    "ITM-1187": {"DAY": 8, "TOL": 14, "CIN": 60, "FTW": 3},
    "ITM-6642": {"DAY": 24, "TOL": 6, "CIN": 50, "FTW": 0},
    "ITM-6643": {"DAY": 18, "TOL": 4, "CIN": 30, "FTW": 2},
    "ITM-7730": {"DAY": 45, "TOL": 70, "CIN": 120, "FTW": 15},
}


def _po(po_id, supplier, item, qty, value, site, need_by, status="open", received=0, raised="2026-11-20"):
    return {
        "po_id": po_id,
        "supplier_id": supplier,
        "supplier_name": SUPPLIERS[supplier],
        "item_id": item,
        "quantity": qty,
        "quantity_received": received,
        "total_value": value,
        "currency": "USD",
        "deliver_to": site,
        "need_by": need_by,
        "raised_on": raised,
        "status": status,
    }


PURCHASE_ORDERS = {
    p["po_id"]: p
    for p in [
        _po("PO-20417", "SUP-318", "ITM-2208", 400, 2960.00, "DAY", "2026-12-04", raised="2026-11-13"),
        _po("PO-20422", "SUP-210", "ITM-4471", 60, 1134.00, "TOL", "2026-12-08", raised="2026-11-17"),
        _po("PO-20431", "SUP-405", "ITM-3015", 120, 5400.00, "CIN", "2026-12-10", raised="2026-11-19"),
        _po("PO-20436", "SUP-512", "ITM-5120", 200, 1780.00, "DAY", "2026-11-27", status="received", received=200, raised="2026-11-10"),
        _po("PO-20440", "SUP-620", "ITM-1187", 12, 1488.00, "FTW", "2026-12-03", raised="2026-11-24"),
        _po("PO-20444", "SUP-210", "ITM-4471", 60, 1134.00, "TOL", "2026-12-08", raised="2026-11-17"),
        _po("PO-20446", "SUP-733", "ITM-7730", 50, 2275.00, "DAY", "2026-12-14", raised="2026-11-25"),
        _po("PO-20448", "SUP-512", "ITM-6643", 40, 3160.00, "TOL", "2026-12-11", raised="2026-11-26"),
    ]
}

TRANSFERS: dict[str, dict] = {}
ADJUSTMENTS: list[dict] = []
COUNTERS = {"po": 20450, "trf": 3001}
TODAY = "2026-12-01"


def _item(item_id: str) -> dict:
    if item_id not in ITEMS:
        raise ToolError(f"Unknown item {item_id}: no such item number in the catalogue.")
    return ITEMS[item_id]


def _supplier(supplier_id: str) -> str:
    if supplier_id not in SUPPLIERS:
        raise ToolError(f"Unknown supplier {supplier_id}: no supplier with that number.")
    return SUPPLIERS[supplier_id]


def _get_po(po_id: str) -> dict:
    if po_id not in PURCHASE_ORDERS:
        raise ToolError(f"Unknown purchase order {po_id}: no purchase order with that number.")
    return PURCHASE_ORDERS[po_id]


@server.tool(
    description="Show how much of an item is on hand. Give a site for one site's count, or leave it out to see every site and the total.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_stock(item_id: ItemId, site: SiteArg | None = None) -> dict:
    item = _item(item_id)
    levels = STOCK[item_id]
    result = {"item_id": item_id, "description": item["description"], "unit": item["unit"]}
    if site is not None:
        result.update({"site": site, "site_name": SITE_NAMES[site], "on_hand": levels[site]})
    else:
        result["by_site"] = [{"site": s, "site_name": SITE_NAMES[s], "on_hand": q} for s, q in levels.items()]
        result["total_on_hand"] = sum(levels.values())
    return result


@server.tool(
    description="Move a quantity of an item from one site to another. Takes the stock off the sending site and books it in at the receiving site.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def transfer_stock(
    item_id: ItemId,
    quantity: Annotated[int, Field(gt=0, description="How many units to move")],
    from_site: SiteArg,
    to_site: SiteArg,
) -> dict:
    item = _item(item_id)
    if from_site == to_site:
        raise ToolError("The sending and receiving sites are the same; pick two different sites.")
    available = STOCK[item_id][from_site]
    if quantity > available:
        raise ToolError(
            f"Only {available} of {item_id} on hand at {SITE_NAMES[from_site]}; cannot move {quantity}."
        )
    STOCK[item_id][from_site] -= quantity
    STOCK[item_id][to_site] += quantity
    transfer_id = f"TRF-{COUNTERS['trf']}"
    COUNTERS["trf"] += 1
    record = {
        "transfer_id": transfer_id,
        "item_id": item_id,
        "description": item["description"],
        "quantity": quantity,
        "from_site": from_site,
        "to_site": to_site,
        "status": "booked",
        "from_site_on_hand_after": STOCK[item_id][from_site],
        "to_site_on_hand_after": STOCK[item_id][to_site],
    }
    TRANSFERS[transfer_id] = record
    return record


@server.tool(
    description="Raise a purchase order to a supplier for one item: quantity, total order value in US dollars, the site it is delivered to and the date it is needed by.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def create_purchase_order(
    supplier_id: SupplierId,
    item_id: ItemId,
    quantity: Annotated[int, Field(gt=0, description="Units to order")],
    total_value: Annotated[float, Field(gt=0, description="Total value of the order in USD")],
    deliver_to: SiteArg,
    need_by: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="Date needed by, YYYY-MM-DD")],
) -> dict:
    _supplier(supplier_id)
    _item(item_id)
    if need_by < TODAY:
        raise ToolError(f"The need-by date {need_by} is in the past.")
    po_id = f"PO-{COUNTERS['po']}"
    COUNTERS["po"] += 1
    po = _po(po_id, supplier_id, item_id, quantity, round(total_value, 2), deliver_to, need_by, raised=TODAY)
    PURCHASE_ORDERS[po_id] = po
    return dict(po)


@server.tool(
    description="Look up one purchase order: supplier, item, quantities ordered and received, value, delivery site, need-by date and status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_purchase_order(po_id: PoId) -> dict:
    return dict(_get_po(po_id))


@server.tool(
    description="List the purchase orders raised with one supplier, newest first, with their status.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def list_purchase_orders(supplier_id: SupplierId) -> dict:
    name = _supplier(supplier_id)
    orders = [
        {k: p[k] for k in ("po_id", "item_id", "quantity", "quantity_received", "total_value", "need_by", "status")}
        for p in sorted(PURCHASE_ORDERS.values(), key=lambda p: p["po_id"], reverse=True)
        if p["supplier_id"] == supplier_id
    ]
    return {"supplier_id": supplier_id, "supplier_name": name, "purchase_orders": orders}


@server.tool(
    description="Book in a delivery against a purchase order: the quantity that arrived is added to the order's delivery site and the order is marked partly or fully received.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def receive_delivery(
    po_id: PoId,
    quantity_received: Annotated[int, Field(gt=0, description="Units that arrived in this delivery")],
) -> dict:
    po = _get_po(po_id)
    if po["status"] == "cancelled":
        raise ToolError(f"{po_id} is cancelled; a delivery cannot be booked against it.")
    if po["status"] == "received":
        raise ToolError(f"{po_id} has already been received in full.")
    outstanding = po["quantity"] - po["quantity_received"]
    if quantity_received > outstanding:
        raise ToolError(
            f"{po_id} has only {outstanding} units outstanding; {quantity_received} is more than was ordered."
        )
    po["quantity_received"] += quantity_received
    po["status"] = "received" if po["quantity_received"] == po["quantity"] else "partially_received"
    STOCK[po["item_id"]][po["deliver_to"]] += quantity_received
    return {
        "po_id": po_id,
        "item_id": po["item_id"],
        "quantity_received": quantity_received,
        "total_received": po["quantity_received"],
        "outstanding": po["quantity"] - po["quantity_received"],
        "site": po["deliver_to"],
        "site_on_hand_after": STOCK[po["item_id"]][po["deliver_to"]],
        "status": po["status"],
    }


@server.tool(
    description="Cancel an open purchase order with the supplier, recording why: no_longer_needed, duplicate, supplier_cannot_supply or price_changed.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def cancel_purchase_order(
    po_id: PoId,
    reason: Annotated[
        Literal["no_longer_needed", "duplicate", "supplier_cannot_supply", "price_changed"],
        Field(description="Why the order is cancelled"),
    ],
) -> dict:
    po = _get_po(po_id)
    if po["status"] == "cancelled":
        return {"po_id": po_id, "status": "cancelled", "reason": po.get("cancel_reason")}
    if po["quantity_received"] > 0:
        raise ToolError(f"{po_id} has deliveries booked against it and can no longer be cancelled.")
    po["status"] = "cancelled"
    po["cancel_reason"] = reason
    return {"po_id": po_id, "supplier_id": po["supplier_id"], "status": "cancelled", "reason": reason}


@server.tool(
    description="Overwrite the on-hand count of an item at a site (stock correction after a cycle count). Reserved for the inventory control team.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def adjust_stock(
    item_id: ItemId,
    site: SiteArg,
    new_quantity: Annotated[int, Field(ge=0, description="The corrected on-hand count")],
) -> dict:
    _item(item_id)
    old = STOCK[item_id][site]
    STOCK[item_id][site] = new_quantity
    ADJUSTMENTS.append({"item_id": item_id, "site": site, "from": old, "to": new_quantity})
    return {"item_id": item_id, "site": site, "previous": old, "on_hand": new_quantity}


if __name__ == "__main__":
    run(server)
