"""A video streaming service's account desk: an MCP server for a blind
evaluation set (blind/streaming-account.conv), written after the seventh
blind round's score and the changes after it, before any tuning on it.
Lookups say `readOnlyHint: true`; plan changes, profiles, pauses and
cancellations change state. One subscriber; deterministic."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-streaming")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PRICES = {"basic": 6.99, "standard": 12.99, "premium": 19.99}
SCREENS = {"basic": 1, "standard": 2, "premium": 4}
ACCOUNT = {"plan": "standard", "profiles": ["main"], "status": "active"}


@server.tool(description="The subscriber's plan and what it includes", annotations=READ)
def current_plan() -> dict:
    plan = ACCOUNT["plan"]
    return {"plan": plan, "screens": SCREENS[plan], "price": PRICES[plan], "status": ACCOUNT["status"]}


@server.tool(description="Move the subscriber to another plan", annotations=WRITE)
def change_plan(plan: Literal["basic", "standard", "premium"]) -> dict:
    ACCOUNT["plan"] = plan
    return {"plan": plan, "price": PRICES[plan], "status": "plan changed"}


@server.tool(description="The amount and date of the next charge", annotations=READ)
def next_bill() -> dict:
    return {"amount": PRICES[ACCOUNT["plan"]], "date": "2026-12-15"}


@server.tool(description="Add a viewer profile to the account", annotations=WRITE)
def add_profile(profile: Literal["kids", "guest"]) -> dict:
    ACCOUNT["profiles"].append(profile)
    return {"profiles": ACCOUNT["profiles"], "status": "profile added"}


@server.tool(description="Pause the subscription for some months", annotations=WRITE)
def pause_subscription(months: Annotated[int, Field(ge=1, le=3)]) -> dict:
    ACCOUNT["status"] = f"paused for {months} months"
    return {"months": months, "status": "paused"}


@server.tool(description="Cancel the subscription at the end of the period",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_subscription(reason: Literal["too expensive", "not using it", "technical problems", "other"]) -> dict:
    ACCOUNT["status"] = "cancelled at period end"
    return {"reason": reason, "status": "cancelled at period end"}


if __name__ == "__main__":
    run(server)
