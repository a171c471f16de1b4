"""A ski shop's rental counter: an MCP server for a blind evaluation set
(blind/ski-rental.conv), written after the eleventh blind round's score and
the changes after it, before any tuning on it. Prices and conditions say
`readOnlyHint: true`; rentals, extensions, returns and damage reports change
state. Deterministic: new rentals count from SK-600."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-skis")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Package = Literal["ski", "snowboard", "cross-country"]
DAILY = {"ski": 45.0, "snowboard": 40.0, "cross-country": 25.0}
RENTALS = {f"SK-30{n}": {"package": "ski", "days": 2, "status": "out"} for n in range(1, 10)}
NEXT = itertools.count(600)
Days = Annotated[int, Field(gt=0, le=30)]
RentalId = Annotated[str, Field(pattern=r"^SK-[0-9]{3}$", description="Rental, e.g. SK-301")]


def rental(rental_id: str) -> dict:
    if rental_id not in RENTALS:
        raise ToolError(f"rental {rental_id} not found")
    return RENTALS[rental_id]


@server.tool(description="Rent a gear package for a number of days", annotations=WRITE)
def rent_gear(package: Package, days: Days) -> dict:
    rental_id = f"SK-{next(NEXT)}"
    RENTALS[rental_id] = {"package": package, "days": days, "status": "out"}
    return {"rental_id": rental_id, "package": package, "days": days, "price": DAILY[package] * days}


@server.tool(description="The daily price of a gear package", annotations=READ)
def rental_price(package: Package) -> dict:
    return {"package": package, "per_day": DAILY[package]}


@server.tool(description="Keep rented gear for more days", annotations=WRITE)
def extend_rental(rental_id: RentalId, days: Days) -> dict:
    found = rental(rental_id)
    if found["status"] != "out":
        raise ToolError(f"rental {rental_id} is closed")
    found["days"] += days
    return {"rental_id": rental_id, "days": found["days"]}


@server.tool(description="Take back rented gear and close the rental", annotations=WRITE)
def return_gear(rental_id: RentalId) -> dict:
    found = rental(rental_id)
    if found["status"] != "out":
        raise ToolError(f"rental {rental_id} is already closed")
    found["status"] = "returned"
    return {"rental_id": rental_id, "status": "returned"}


@server.tool(description="Record damage to rented gear", annotations=WRITE)
def report_damage(rental_id: RentalId) -> dict:
    rental(rental_id)
    return {"rental_id": rental_id, "damage": "recorded"}


@server.tool(description="Today's snow and lift conditions", annotations=READ)
def snow_report() -> dict:
    return {"new_snow_cm": 12, "base_cm": 140, "lifts_open": 9, "lifts_total": 11}


if __name__ == "__main__":
    run(server)
