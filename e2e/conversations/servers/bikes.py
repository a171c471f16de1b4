"""A bike share service: an MCP server for an eighth blind evaluation set
(blind/bike-share.conv), written after the fifth blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; unlocks, damage reports and
top-ups change state. Deterministic: rides count from RD-601, reports from
DMG-301."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-bikes")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Station = Literal["harbor", "market", "university", "park"]
STATIONS = {"harbor": 6, "market": 0, "university": 9, "park": 3}
BIKES = {"BK-101": "harbor", "BK-102": "harbor", "BK-205": "university", "BK-206": "university",
         "BK-310": "park", "BK-311": "park", "BK-412": "university"}
ACCOUNTS = {"U-5001": 12.50, "U-5002": 0.0, "U-5003": 40.0}
NEXT_RIDE = itertools.count(601)
NEXT_REPORT = itertools.count(301)

BikeId = Annotated[str, Field(pattern=r"^BK-[0-9]{3}$", description="Bike number, e.g. BK-101")]
AccountId = Annotated[str, Field(pattern=r"^U-[0-9]{4}$", description="Account, e.g. U-5001")]


@server.tool(description="Bikes free at a station", annotations=READ)
def station_bikes(station: Station) -> dict:
    return {"station": station, "bikes_free": STATIONS[station]}


@server.tool(description="Unlock a bike to ride it", annotations=WRITE)
def unlock_bike(bike_id: BikeId) -> dict:
    if bike_id not in BIKES:
        raise ToolError(f"bike {bike_id} not found")
    if BIKES[bike_id] == "broken":
        raise ToolError(f"bike {bike_id} is out of service")
    return {"ride_id": f"RD-{next(NEXT_RIDE)}", "bike_id": bike_id, "status": "unlocked"}


@server.tool(description="Report a damaged bike", annotations=WRITE)
def report_damage(bike_id: BikeId, problem: Literal["flat tire", "brakes", "chain", "lock"]) -> dict:
    if bike_id not in BIKES:
        raise ToolError(f"bike {bike_id} not found")
    BIKES[bike_id] = "broken"
    return {"report_id": f"DMG-{next(NEXT_REPORT)}", "bike_id": bike_id, "problem": problem, "status": "reported"}


@server.tool(description="Credit left on an account", annotations=READ)
def account_credit(account_id: AccountId) -> dict:
    if account_id not in ACCOUNTS:
        raise ToolError(f"account {account_id} not found")
    return {"account_id": account_id, "credit": round(ACCOUNTS[account_id], 2)}


@server.tool(description="Add credit to an account", annotations=WRITE)
def top_up(account_id: AccountId, amount: Annotated[float, Field(gt=0, le=500, description="Dollars")]) -> dict:
    if account_id not in ACCOUNTS:
        raise ToolError(f"account {account_id} not found")
    ACCOUNTS[account_id] += amount
    return {"account_id": account_id, "added": amount, "credit": round(ACCOUNTS[account_id], 2)}


if __name__ == "__main__":
    run(server)
