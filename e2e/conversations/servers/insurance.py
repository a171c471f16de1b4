"""A home insurer's claims desk: an MCP server for a blind evaluation set
(blind/home-insurance.conv), written after the fifth blind round's score and
the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; claims, coverage and inspections change state.
Deterministic: new claims count from CLM-6000."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-insurance")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

POLICIES = {
    f"HP-1000{n}": {"covers": ["fire", "theft", "storm", "water"], "deductible": 500, "monthly": 40.0 + 5 * n}
    for n in range(1, 9)
}
CLAIMS = {
    "CLM-5001": {"policy": "HP-10001", "status": "approved", "paid": 1800.0},
    "CLM-5002": {"policy": "HP-10002", "status": "under review", "paid": 0.0},
    "CLM-5003": {"policy": "HP-10003", "status": "waiting for inspection", "paid": 0.0},
    "CLM-5004": {"policy": "HP-10004", "status": "paid", "paid": 640.0},
}
NEXT = itertools.count(6000)

PolicyNumber = Annotated[str, Field(pattern=r"^HP-[0-9]{5}$", description="Policy, e.g. HP-10001")]
ClaimId = Annotated[str, Field(pattern=r"^CLM-[0-9]{4}$", description="Claim, e.g. CLM-5001")]


def policy(number: str) -> dict:
    if number not in POLICIES:
        raise ToolError(f"policy {number} not found")
    return POLICIES[number]


def claim(claim_id: str) -> dict:
    if claim_id not in CLAIMS:
        raise ToolError(f"claim {claim_id} not found")
    return CLAIMS[claim_id]


@server.tool(description="What a home policy covers and its deductible", annotations=READ)
def policy_coverage(policy_number: PolicyNumber) -> dict:
    found = policy(policy_number)
    return {"policy_number": policy_number, "covers": found["covers"], "deductible": found["deductible"]}


@server.tool(description="The monthly premium of a policy", annotations=READ)
def premium(policy_number: PolicyNumber) -> dict:
    return {"policy_number": policy_number, "monthly": policy(policy_number)["monthly"]}


@server.tool(description="Open a claim for damage or a loss", annotations=WRITE)
def file_claim(policy_number: PolicyNumber, damage: Literal["water", "fire", "theft", "storm"],
               amount: Annotated[float, Field(gt=0, description="Dollars")]) -> dict:
    policy(policy_number)
    claim_id = f"CLM-{next(NEXT)}"
    CLAIMS[claim_id] = {"policy": policy_number, "status": "under review", "paid": 0.0}
    return {"claim_id": claim_id, "damage": damage, "amount": amount, "status": "under review"}


@server.tool(description="Where a claim stands", annotations=READ)
def claim_status(claim_id: ClaimId) -> dict:
    return {"claim_id": claim_id, **claim(claim_id)}


@server.tool(description="Add coverage to a policy", annotations=WRITE)
def add_coverage(policy_number: PolicyNumber, coverage: Literal["flood", "earthquake", "jewelry"]) -> dict:
    found = policy(policy_number)
    if coverage not in found["covers"]:
        found["covers"].append(coverage)
        found["monthly"] += 12.0
    return {"policy_number": policy_number, "covers": found["covers"], "monthly": found["monthly"]}


@server.tool(description="Book an inspector's visit for a claim", annotations=WRITE)
def schedule_inspection(claim_id: ClaimId, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    claim(claim_id)
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return {"claim_id": claim_id, "date": date, "status": "inspection booked"}


if __name__ == "__main__":
    run(server)
