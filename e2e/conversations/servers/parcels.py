"""A parcel delivery desk: an MCP server for a fourth blind evaluation set
(blind/parcel-desk.conv), written after the third blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; rescheduling, redirecting
and claims change state. Deterministic: claims count from CLM-701."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-parcels")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PARCELS = {
    "PK-40001": {"status": "out for delivery", "delivery_date": "2026-12-02", "to": "door"},
    "PK-40002": {"status": "in transit", "delivery_date": "2026-12-04", "to": "door"},
    "PK-40003": {"status": "delivered", "delivery_date": "2026-11-20", "to": "door"},
    "PK-40004": {"status": "held at depot", "delivery_date": "2026-12-03", "to": "door"},
    "PK-40005": {"status": "in transit", "delivery_date": "2026-12-05", "to": "door"},
    "PK-40006": {"status": "in transit", "delivery_date": "2026-12-06", "to": "door"},
}
CLAIMS = {"CLM-600": {"parcel": "PK-40003", "amount": 45.0, "status": "approved"}}
NEXT_CLAIM = itertools.count(701)

ParcelId = Annotated[str, Field(pattern=r"^PK-[0-9]{5}$", description="Tracking number, e.g. PK-40001")]


def parcel(tracking_number: str) -> dict:
    if tracking_number not in PARCELS:
        raise ToolError(f"parcel {tracking_number} not found")
    return PARCELS[tracking_number]


@server.tool(description="Where a parcel is and when it arrives", annotations=READ)
def track_parcel(tracking_number: ParcelId) -> dict:
    return {"tracking_number": tracking_number, **parcel(tracking_number)}


@server.tool(description="Move a delivery to another day", annotations=WRITE)
def reschedule_delivery(tracking_number: ParcelId,
                        delivery_date: Annotated[str, Field(description="New day, YYYY-MM-DD")]) -> dict:
    found = parcel(tracking_number)
    try:
        datetime.date.fromisoformat(delivery_date)
    except ValueError:
        raise ToolError(f"delivery_date: {delivery_date} is not a date (YYYY-MM-DD)")
    if found["status"] == "delivered":
        raise ToolError(f"parcel {tracking_number} was already delivered")
    found["delivery_date"] = delivery_date
    return {"tracking_number": tracking_number, "delivery_date": delivery_date, "status": "rescheduled"}


@server.tool(description="Send a parcel to a pickup point instead of the door", annotations=WRITE)
def redirect_parcel(tracking_number: ParcelId, pickup_point: Literal["station", "locker", "shop"]) -> dict:
    found = parcel(tracking_number)
    if found["status"] == "delivered":
        raise ToolError(f"parcel {tracking_number} was already delivered")
    found["to"] = pickup_point
    return {"tracking_number": tracking_number, "pickup_point": pickup_point, "status": "redirected"}


@server.tool(description="File a claim for a damaged or lost parcel", annotations=WRITE)
def file_claim(tracking_number: ParcelId,
               amount: Annotated[float, Field(gt=0, le=5000, description="Dollars")]) -> dict:
    parcel(tracking_number)
    claim = f"CLM-{next(NEXT_CLAIM)}"
    CLAIMS[claim] = {"parcel": tracking_number, "amount": amount, "status": "under review"}
    return {"claim_id": claim, "tracking_number": tracking_number, "amount": amount, "status": "under review"}


@server.tool(description="Status of a claim", annotations=READ)
def claim_status(claim_id: Annotated[str, Field(pattern=r"^CLM-[0-9]{3}$", description="Claim, e.g. CLM-600")]) -> dict:
    if claim_id not in CLAIMS:
        raise ToolError(f"claim {claim_id} not found")
    return {"claim_id": claim_id, **CLAIMS[claim_id]}


if __name__ == "__main__":
    run(server)
