"""MCP server of the wine-desk blind evaluation skill: a wine merchant's trade
desk for restaurants and bars (case orders, standing orders, deliveries, stock
and allocations, returns of faulty bottles, account credit). Deterministic,
in-memory, seeded with a handful of accounts, wines and orders."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-wine")

AccountId = Annotated[
    str, Field(pattern=r"^TA-[0-9]{4}$", description="Trade account number, e.g. TA-2031")
]
BinId = Annotated[
    str, Field(pattern=r"^BIN-[0-9]{4}$", description="Bin number of the wine, e.g. BIN-4471")
]
OrderId = Annotated[
    str, Field(pattern=r"^WO-[0-9]{5}$", description="Wholesale order number, e.g. WO-60318")
]
Day = Annotated[
    str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="A date, YYYY-MM-DD")
]

ACCOUNTS: dict[str, dict] = {
    "TA-2031": {"name": "The Gilded Fig", "kind": "restaurant", "credit_limit": 15000.00, "balance": 6240.75},
    "TA-1187": {"name": "Bar Osteria Lupo", "kind": "bar", "credit_limit": 8000.00, "balance": 7710.00},
    "TA-3309": {"name": "Harbour & Vine", "kind": "wine bar", "credit_limit": 20000.00, "balance": 2150.00},
    "TA-0456": {"name": "Marlow Street Bistro", "kind": "restaurant", "credit_limit": 5000.00, "balance": 0.00},
}

WINES: dict[str, dict] = {
    "BIN-4471": {"wine": "Sancerre Les Caillottes 2023", "bottles_per_case": 12, "case_price": 228.00, "cases_on_hand": 140},
    "BIN-2208": {"wine": "Barolo Brunate 2019", "bottles_per_case": 6, "case_price": 540.00, "cases_on_hand": 18,
                 "allocations": {"TA-2031": 3, "TA-3309": 4}},
    "BIN-1150": {"wine": "Cotes du Rhone Rouge 2022 (house red)", "bottles_per_case": 12, "case_price": 96.00, "cases_on_hand": 600},
    "BIN-3092": {"wine": "Champagne Brut NV", "bottles_per_case": 6, "case_price": 210.00, "cases_on_hand": 85},
    "BIN-5514": {"wine": "Albarino Rias Baixas 2023", "bottles_per_case": 12, "case_price": 156.00, "cases_on_hand": 60},
    "BIN-7730": {"wine": "Chablis Premier Cru Montmains 2021", "bottles_per_case": 6, "case_price": 264.00, "cases_on_hand": 10,
                 "allocations": {"TA-3309": 6, "TA-2031": 2}},
    "BIN-6021": {"wine": "Malbec Mendoza 2022", "bottles_per_case": 12, "case_price": 132.00, "cases_on_hand": 210},
}

ORDERS: dict[str, dict] = {
    "WO-60301": {"account_id": "TA-0456", "lines": [{"bin_id": "BIN-6021", "cases": 3}],
                 "status": "delivered", "delivery_date": "2026-11-20", "slot": "morning"},
    "WO-60318": {"account_id": "TA-2031", "lines": [{"bin_id": "BIN-4471", "cases": 5}, {"bin_id": "BIN-2208", "cases": 1}],
                 "status": "delivered", "delivery_date": "2026-11-27", "slot": "afternoon"},
    "WO-60342": {"account_id": "TA-1187", "lines": [{"bin_id": "BIN-1150", "cases": 10}, {"bin_id": "BIN-3092", "cases": 2}],
                 "status": "scheduled", "delivery_date": "2026-12-03", "slot": "morning"},
    "WO-60355": {"account_id": "TA-3309", "lines": [{"bin_id": "BIN-5514", "cases": 4}],
                 "status": "scheduled", "delivery_date": "2026-12-02", "slot": "afternoon"},
    "WO-60360": {"account_id": "TA-2031", "lines": [{"bin_id": "BIN-3092", "cases": 6}],
                 "status": "scheduled", "delivery_date": "2026-12-04", "slot": "morning"},
}

STANDING: dict[str, dict] = {
    "SO-0107": {"account_id": "TA-1187", "bin_id": "BIN-1150", "cases": 10, "frequency": "weekly", "start_date": "2026-09-03"},
}

RETURNS: dict[str, dict] = {}

_next = {"order": 60361, "standing": 108, "return": 2201}


def _account(account_id: str) -> dict:
    if account_id not in ACCOUNTS:
        raise ToolError(f"No trade account {account_id}. Known accounts: {', '.join(sorted(ACCOUNTS))}.")
    return ACCOUNTS[account_id]


def _wine(bin_id: str) -> dict:
    if bin_id not in WINES:
        raise ToolError(f"No wine in bin {bin_id}. Known bins: {', '.join(sorted(WINES))}.")
    return WINES[bin_id]


def _order(order_id: str) -> dict:
    if order_id not in ORDERS:
        raise ToolError(f"No order {order_id}.")
    return ORDERS[order_id]


def _order_view(order_id: str, order: dict) -> dict:
    lines = []
    total = 0.0
    for line in order["lines"]:
        wine = WINES[line["bin_id"]]
        value = round(line["cases"] * wine["case_price"], 2)
        total += value
        lines.append({"bin_id": line["bin_id"], "wine": wine["wine"], "cases": line["cases"], "value": value})
    return {
        "order_id": order_id,
        "account_id": order["account_id"],
        "account_name": ACCOUNTS[order["account_id"]]["name"],
        "status": order["status"],
        "delivery_date": order["delivery_date"],
        "slot": order["slot"],
        "lines": lines,
        "total": round(total, 2),
    }


@server.tool(
    description="Stock of one wine by bin number: cases on hand, bottles per case, trade price per case, "
    "and, for allocated (scarce) wines, how many cases each account may still take.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def check_stock(bin_id: BinId) -> dict:
    wine = _wine(bin_id)
    out = {
        "bin_id": bin_id,
        "wine": wine["wine"],
        "bottles_per_case": wine["bottles_per_case"],
        "case_price": wine["case_price"],
        "cases_on_hand": wine["cases_on_hand"],
        "allocated": "allocations" in wine,
    }
    if "allocations" in wine:
        out["allocations"] = [
            {"account_id": a, "account_name": ACCOUNTS[a]["name"], "cases_remaining": n}
            for a, n in sorted(wine["allocations"].items())
        ]
    return out


@server.tool(
    description="A trade account: name, balance owed, credit limit, credit available, its allocations of "
    "scarce wines, its standing orders and its recent orders.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_account(account_id: AccountId) -> dict:
    acc = _account(account_id)
    return {
        "account_id": account_id,
        "name": acc["name"],
        "kind": acc["kind"],
        "balance": round(acc["balance"], 2),
        "credit_limit": acc["credit_limit"],
        "credit_available": round(acc["credit_limit"] - acc["balance"], 2),
        "allocations": [
            {"bin_id": b, "wine": w["wine"], "cases_remaining": w["allocations"][account_id]}
            for b, w in sorted(WINES.items())
            if account_id in w.get("allocations", {})
        ],
        "standing_orders": [
            {"standing_order_id": s, **{k: v for k, v in so.items() if k != "account_id"}}
            for s, so in sorted(STANDING.items())
            if so["account_id"] == account_id
        ],
        "recent_orders": [
            {"order_id": o, "status": od["status"], "delivery_date": od["delivery_date"]}
            for o, od in sorted(ORDERS.items())
            if od["account_id"] == account_id
        ],
        "returns": [
            {"return_id": r, **{k: v for k, v in rt.items() if k != "account_id"}}
            for r, rt in sorted(RETURNS.items())
            if rt["account_id"] == account_id
        ],
    }


@server.tool(
    description="One order by its number: account, wines and cases, value, status and delivery day and slot.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_order(order_id: OrderId) -> dict:
    return _order_view(order_id, _order(order_id))


@server.tool(
    description="Place a one-off wholesale order of one wine, by the case, for a trade account, delivered "
    "on the given day. Allocated wines are limited to the account's remaining allocation.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def place_order(
    account_id: AccountId,
    bin_id: BinId,
    cases: Annotated[int, Field(ge=1, le=500, description="Number of cases")],
    delivery_date: Day,
) -> dict:
    acc = _account(account_id)
    wine = _wine(bin_id)
    if cases > wine["cases_on_hand"]:
        raise ToolError(f"Only {wine['cases_on_hand']} cases of {bin_id} on hand; {cases} requested.")
    allocations = wine.get("allocations")
    if allocations is not None:
        left = allocations.get(account_id, 0)
        if cases > left:
            raise ToolError(
                f"{bin_id} is allocated: {account_id} has {left} cases of its allocation left; {cases} requested."
            )
        allocations[account_id] = left - cases
    wine["cases_on_hand"] -= cases
    order_id = f"WO-{_next['order']}"
    _next["order"] += 1
    ORDERS[order_id] = {
        "account_id": account_id,
        "lines": [{"bin_id": bin_id, "cases": cases}],
        "status": "scheduled",
        "delivery_date": delivery_date,
        "slot": "morning",
    }
    value = round(cases * wine["case_price"], 2)
    acc["balance"] = round(acc["balance"] + value, 2)
    out = _order_view(order_id, ORDERS[order_id])
    if acc["balance"] > acc["credit_limit"]:
        out["credit_warning"] = "This order takes the account over its credit limit."
    return out


@server.tool(
    description="Move the delivery of a scheduled order to another day and slot "
    "(morning: 7am-11am, afternoon: 12pm-4pm).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def reschedule_delivery(
    order_id: OrderId,
    delivery_date: Day,
    slot: Annotated[Literal["morning", "afternoon"], Field(description="morning 7am-11am, afternoon 12pm-4pm")],
) -> dict:
    order = _order(order_id)
    if order["status"] != "scheduled":
        raise ToolError(f"{order_id} is {order['status']}; only a scheduled delivery can be moved.")
    previous = {"delivery_date": order["delivery_date"], "slot": order["slot"]}
    order["delivery_date"] = delivery_date
    order["slot"] = slot
    return {**_order_view(order_id, order), "previous": previous}


@server.tool(
    description="Set up a standing (repeating) order: the same wine and number of cases delivered to a "
    "trade account weekly, fortnightly or monthly from a first delivery day.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def set_standing_order(
    account_id: AccountId,
    bin_id: BinId,
    cases: Annotated[int, Field(ge=1, le=100, description="Cases per delivery")],
    frequency: Literal["weekly", "fortnightly", "monthly"],
    start_date: Day,
) -> dict:
    _account(account_id)
    wine = _wine(bin_id)
    if "allocations" in wine:
        raise ToolError(f"{bin_id} is an allocated wine and cannot go on a standing order.")
    so_id = f"SO-{_next['standing']:04d}"
    _next["standing"] += 1
    STANDING[so_id] = {"account_id": account_id, "bin_id": bin_id, "cases": cases,
                       "frequency": frequency, "start_date": start_date}
    return {"standing_order_id": so_id, "account_id": account_id, "bin_id": bin_id, "wine": wine["wine"],
            "cases": cases, "frequency": frequency, "start_date": start_date, "status": "active"}


@server.tool(
    description="Log faulty bottles of one wine from a delivered order for collection and credit: "
    "corked (cork taint), heat_damaged (cooked), broken, or wrong_wine (not what was ordered).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def return_bottles(
    order_id: OrderId,
    bin_id: BinId,
    bottles: Annotated[int, Field(ge=1, le=600, description="Number of bottles going back")],
    reason: Literal["corked", "heat_damaged", "broken", "wrong_wine"],
) -> dict:
    order = _order(order_id)
    wine = _wine(bin_id)
    if order["status"] != "delivered":
        raise ToolError(f"{order_id} has not been delivered yet ({order['status']}).")
    line = next((l for l in order["lines"] if l["bin_id"] == bin_id), None)
    if line is None:
        raise ToolError(f"{bin_id} is not on order {order_id}.")
    delivered = line["cases"] * wine["bottles_per_case"]
    if bottles > delivered:
        raise ToolError(f"Only {delivered} bottles of {bin_id} were delivered on {order_id}.")
    credit = round(bottles * wine["case_price"] / wine["bottles_per_case"], 2)
    return_id = f"RC-{_next['return']}"
    _next["return"] += 1
    account_id = order["account_id"]
    RETURNS[return_id] = {"account_id": account_id, "order_id": order_id, "bin_id": bin_id,
                          "bottles": bottles, "reason": reason, "credit": credit}
    ACCOUNTS[account_id]["balance"] = round(ACCOUNTS[account_id]["balance"] - credit, 2)
    return {"return_id": return_id, "order_id": order_id, "bin_id": bin_id, "wine": wine["wine"],
            "bottles": bottles, "reason": reason, "credit": credit, "collection": "with the next delivery"}


@server.tool(
    description="Change a trade account's credit limit (credit control team only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def raise_credit_limit(
    account_id: AccountId,
    new_limit: Annotated[float, Field(gt=0, description="New credit limit in dollars")],
) -> dict:
    acc = _account(account_id)
    previous = acc["credit_limit"]
    acc["credit_limit"] = round(new_limit, 2)
    return {"account_id": account_id, "previous_limit": previous, "credit_limit": acc["credit_limit"]}


if __name__ == "__main__":
    run(server)
