"""Card services: an MCP server for a tuning set (tuning/), the patterns of
issue 48 in a banking desk. Lookups say `readOnlyHint: true`; freezing,
unfreezing, limits and transfers change state. Deterministic: transfers count
from TR-501."""

import itertools
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("tuning-cards")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

CARDS = {"4421": {"frozen": False, "limit": 2000}, "9077": {"frozen": True, "limit": 500}}
TRANSFERS = {"TR-100": {"amount": 250.0, "to": "ann.lee", "status": "completed"}}
BALANCE = 3120.55
NEXT = itertools.count(501)

Card = Annotated[str, Field(pattern=r"^[0-9]{4}$", description="Last four digits of the card")]


def known(last4: str) -> dict:
    if last4 not in CARDS:
        raise ToolError(f"card ending {last4} not found")
    return CARDS[last4]


@server.tool(description="Account balance", annotations=READ)
def account_balance() -> dict:
    return {"balance": BALANCE, "currency": "USD"}


@server.tool(description="Status and limit of a card", annotations=READ)
def card_status(card: Card) -> dict:
    found = known(card)
    return {"card": card, "frozen": found["frozen"], "limit": found["limit"]}


@server.tool(description="Freeze a card so it cannot be used", annotations=WRITE)
def freeze_card(card: Card) -> dict:
    found = known(card)
    found["frozen"] = True
    return {"card": card, "frozen": True}


@server.tool(description="Unfreeze a card", annotations=WRITE)
def unfreeze_card(card: Card) -> dict:
    found = known(card)
    found["frozen"] = False
    return {"card": card, "frozen": False}


@server.tool(description="Raise a card's spending limit", annotations=WRITE)
def raise_limit(card: Card, limit: Annotated[float, Field(gt=0, le=50000, description="New limit in dollars")]) -> dict:
    found = known(card)
    found["limit"] = limit
    return {"card": card, "limit": limit}


@server.tool(description="Send money to a person", annotations=WRITE)
def transfer_money(recipient: Annotated[str, Field(pattern=r"^[a-z]+\.[a-z]+$", description="Username, e.g. ann.lee")],
                   amount: Annotated[float, Field(gt=0, le=20000, description="Dollars")]) -> dict:
    transfer = f"TR-{next(NEXT)}"
    TRANSFERS[transfer] = {"amount": amount, "to": recipient, "status": "processing"}
    return {"transfer_id": transfer, "recipient": recipient, "amount": amount, "status": "processing"}


@server.tool(description="Status of a transfer", annotations=READ)
def transfer_status(transfer_id: Annotated[str, Field(pattern=r"^TR-[0-9]+$", description="Transfer, e.g. TR-100")]) -> dict:
    if transfer_id not in TRANSFERS:
        raise ToolError(f"transfer {transfer_id} not found")
    return {"transfer_id": transfer_id, **TRANSFERS[transfer_id]}


if __name__ == "__main__":
    run(server)
