"""A city transit agency's fare desk: an MCP server for a blind evaluation
set (blind/transit-pass.conv), written after the tenth blind round's score
and the changes after it, before any tuning on it. Balances and schedules say
`readOnlyHint: true`; passes, top-ups, blocks and refunds change state.
Deterministic."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-transit")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PASSES = {"weekly": 25.0, "monthly": 90.0, "annual": 900.0}
SCHEDULES = {"red line": "5:00-1:00, every 6 minutes", "blue line": "5:30-0:30, every 8 minutes",
             "green line": "6:00-23:00, every 12 minutes"}
CARDS = {f"TC-1000{n}": {"balance": 12.5 * n, "blocked": False, "pass": ""} for n in range(1, 10)}
TRIPS = {f"TRP-500{n}": {"fare": 2.75, "refunded": False} for n in range(1, 10)}

CardId = Annotated[str, Field(pattern=r"^TC-[0-9]{5}$", description="Fare card, e.g. TC-10001")]


def card(card_id: str) -> dict:
    if card_id not in CARDS:
        raise ToolError(f"card {card_id} not found")
    return CARDS[card_id]


@server.tool(description="Load a pass of a duration onto a fare card", annotations=WRITE)
def buy_pass(card_id: CardId, pass_type: Literal["weekly", "monthly", "annual"]) -> dict:
    found = card(card_id)
    if found["blocked"]:
        raise ToolError(f"card {card_id} is blocked")
    found["pass"] = pass_type
    return {"card_id": card_id, "pass": pass_type, "price": PASSES[pass_type]}


@server.tool(description="The money left on a fare card", annotations=READ)
def card_balance(card_id: CardId) -> dict:
    found = card(card_id)
    return {"card_id": card_id, "balance": found["balance"], "blocked": found["blocked"]}


@server.tool(description="Add money to a fare card", annotations=WRITE)
def top_up_card(card_id: CardId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = card(card_id)
    found["balance"] = round(found["balance"] + amount, 2)
    return {"card_id": card_id, "balance": found["balance"]}


@server.tool(description="Block a lost or stolen fare card",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def block_card(card_id: CardId) -> dict:
    found = card(card_id)
    found["blocked"] = True
    return {"card_id": card_id, "blocked": True}


@server.tool(description="Refund a trip's fare", annotations=WRITE)
def refund_trip(trip_id: Annotated[str, Field(pattern=r"^TRP-[0-9]{4}$")]) -> dict:
    if trip_id not in TRIPS:
        raise ToolError(f"trip {trip_id} not found")
    trip = TRIPS[trip_id]
    if trip["refunded"]:
        raise ToolError(f"trip {trip_id} was already refunded")
    trip["refunded"] = True
    return {"trip_id": trip_id, "refunded": trip["fare"]}


@server.tool(description="When a line runs", annotations=READ)
def line_schedule(line: Literal["red line", "blue line", "green line"]) -> dict:
    return {"line": line, "runs": SCHEDULES[line]}


if __name__ == "__main__":
    run(server)
