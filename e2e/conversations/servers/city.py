"""A city's 311 service desk: an MCP server for a blind evaluation set
(blind/city-services.conv), written after the seventh blind round's score and
the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; reports, cancellations and permits change state.
Deterministic: new requests count from SR-20000, permits from PP-4000."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-city")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

REQUESTS = {f"SR-1002{n}": {"issue": "pothole", "status": "crew assigned"} for n in range(0, 10)}
REQUESTS["SR-10021"]["status"] = "fixed"
PERMITS = {"PP-3001": {"plate": "7KLM221", "status": "approved"}, "PP-3002": {"plate": "4ABC123", "status": "in review"},
           "PP-3003": {"plate": "8XYZ990", "status": "expired"}}
NEXT_REQUEST = itertools.count(20000)
NEXT_PERMIT = itertools.count(4000)

RequestId = Annotated[str, Field(pattern=r"^SR-[0-9]{5}$", description="Request, e.g. SR-10021")]


def request(request_id: str) -> dict:
    if request_id not in REQUESTS:
        raise ToolError(f"request {request_id} not found")
    return REQUESTS[request_id]


@server.tool(description="File a service request for a street problem", annotations=WRITE)
def report_issue(issue: Literal["pothole", "streetlight", "graffiti", "trash"],
                 address: Annotated[str, Field(min_length=3, description="Street address")]) -> dict:
    request_id = f"SR-{next(NEXT_REQUEST)}"
    REQUESTS[request_id] = {"issue": issue, "status": "received"}
    return {"request_id": request_id, "issue": issue, "address": address, "status": "received"}


@server.tool(description="Where a service request stands", annotations=READ)
def request_status(request_id: RequestId) -> dict:
    return {"request_id": request_id, **request(request_id)}


@server.tool(description="Withdraw a service request", annotations=WRITE)
def cancel_request(request_id: RequestId) -> dict:
    found = request(request_id)
    if found["status"] == "withdrawn":
        raise ToolError(f"request {request_id} is already withdrawn")
    found["status"] = "withdrawn"
    return {"request_id": request_id, "status": "withdrawn"}


@server.tool(description="Trash and recycling pickup days for a zip code", annotations=READ)
def trash_schedule(zip: Annotated[str, Field(pattern=r"^[0-9]{5}$")]) -> dict:
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    return {"zip": zip, "trash": days[int(zip) % 5], "recycling": days[(int(zip) + 2) % 5]}


@server.tool(description="Issue a residential parking permit", annotations=WRITE)
def parking_permit(plate: Annotated[str, Field(pattern=r"^[A-Z0-9]{5,7}$")],
                   months: Annotated[int, Field(ge=1, le=12)]) -> dict:
    permit_id = f"PP-{next(NEXT_PERMIT)}"
    PERMITS[permit_id] = {"plate": plate, "status": "approved"}
    return {"permit_id": permit_id, "plate": plate, "months": months, "status": "approved"}


@server.tool(description="The status of a parking permit", annotations=READ)
def permit_status(permit_id: Annotated[str, Field(pattern=r"^PP-[0-9]{4}$")]) -> dict:
    if permit_id not in PERMITS:
        raise ToolError(f"permit {permit_id} not found")
    return {"permit_id": permit_id, **PERMITS[permit_id]}


if __name__ == "__main__":
    run(server)
