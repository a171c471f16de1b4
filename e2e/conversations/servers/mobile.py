"""A mobile carrier's line desk: an MCP server for a tenth blind evaluation
set (blind/mobile-lines.conv), written after the eighth blind score and before
any tuning after it. Lookups say `readOnlyHint: true`; data packs, plan changes
and roaming change state."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-mobile")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

LINES = {
    "LN-1001": {"plan": "basic", "used_gb": 3.2, "limit_gb": 5, "roaming": "off", "amount_due": 25.0, "due_date": "2026-12-10"},
    "LN-1002": {"plan": "plus", "used_gb": 9.8, "limit_gb": 10, "roaming": "off", "amount_due": 40.0, "due_date": "2026-12-12"},
    "LN-1003": {"plan": "plus", "used_gb": 1.1, "limit_gb": 10, "roaming": "off", "amount_due": 0.0, "due_date": ""},
    "LN-1004": {"plan": "unlimited", "used_gb": 22.5, "limit_gb": 999, "roaming": "off", "amount_due": 60.0, "due_date": "2026-12-15"},
    "LN-1005": {"plan": "basic", "used_gb": 4.9, "limit_gb": 5, "roaming": "off", "amount_due": 25.0, "due_date": "2026-12-18"},
}
PACKS = {"1gb": 1, "5gb": 5, "10gb": 10}

LineId = Annotated[str, Field(pattern=r"^LN-[0-9]{4}$", description="Line, e.g. LN-1001")]


def line(line_id: str) -> dict:
    if line_id not in LINES:
        raise ToolError(f"line {line_id} not found")
    return LINES[line_id]


@server.tool(description="Data used this month on a line", annotations=READ)
def data_usage(line_id: LineId) -> dict:
    found = line(line_id)
    return {"line_id": line_id, "used_gb": found["used_gb"], "limit_gb": found["limit_gb"]}


@server.tool(description="Amount due on a line's bill", annotations=READ)
def bill_amount(line_id: LineId) -> dict:
    found = line(line_id)
    return {"line_id": line_id, "amount_due": found["amount_due"], "due_date": found["due_date"]}


@server.tool(description="Add a data pack to a line", annotations=WRITE)
def add_data(line_id: LineId, pack: Literal["1gb", "5gb", "10gb"]) -> dict:
    found = line(line_id)
    found["limit_gb"] += PACKS[pack]
    return {"line_id": line_id, "pack": pack, "limit_gb": found["limit_gb"], "status": "added"}


@server.tool(description="Change a line's plan", annotations=WRITE)
def change_plan(line_id: LineId, plan: Literal["basic", "plus", "unlimited"]) -> dict:
    line(line_id)["plan"] = plan
    return {"line_id": line_id, "plan": plan, "status": "changed"}


@server.tool(description="Turn roaming on or off on a line", annotations=WRITE)
def set_roaming(line_id: LineId, roaming: Literal["on", "off"]) -> dict:
    line(line_id)["roaming"] = roaming
    return {"line_id": line_id, "roaming": roaming, "status": "updated"}


if __name__ == "__main__":
    run(server)
