"""HR leave and expenses: an MCP server for a blind evaluation set (blind/),
written before any tuning on it. Lookups say `readOnlyHint: true`; requests,
cancellations and claims change state. Deterministic: leave requests count
from LV-3001, expense claims from EX-8001."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-leave")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

VACATION_DAYS, SICK_DAYS = 18, 5
LEAVE = {
    "LV-2001": {"start_date": "2026-10-05", "days": 3, "status": "approved"},
    "LV-2002": {"start_date": "2026-12-01", "days": 1, "status": "pending"},
    "LV-2003": {"start_date": "2026-12-07", "days": 2, "status": "pending"},
    "LV-2004": {"start_date": "2027-01-18", "days": 5, "status": "approved"},
    "LV-2005": {"start_date": "2027-02-22", "days": 1, "status": "pending"},
    "LV-2006": {"start_date": "2027-03-15", "days": 2, "status": "pending"},
}
EXPENSES = {
    "EX-7001": {"amount": 120.0, "category": "travel", "status": "paid"},
    "EX-7002": {"amount": 64.5, "category": "meals", "status": "pending"},
}
NEXT_LEAVE = itertools.count(3001)
NEXT_EXPENSE = itertools.count(8001)

RequestId = Annotated[str, Field(pattern=r"^LV-[0-9]{4}$", description="Leave request, e.g. LV-2001")]


@server.tool(description="Vacation and sick days left this year", annotations=READ)
def leave_balance() -> dict:
    return {"vacation_days": VACATION_DAYS, "sick_days": SICK_DAYS}


@server.tool(description="Request vacation days", annotations=WRITE)
def request_leave(start_date: Annotated[str, Field(description="First day off, YYYY-MM-DD")],
                  days: Annotated[int, Field(ge=1, description="How many working days")]) -> dict:
    try:
        datetime.date.fromisoformat(start_date)
    except ValueError:
        raise ToolError(f"start_date: {start_date} is not a date (YYYY-MM-DD)")
    if days > VACATION_DAYS:
        raise ToolError(f"days: {days} is more than the {VACATION_DAYS} vacation days left")
    request = f"LV-{next(NEXT_LEAVE)}"
    LEAVE[request] = {"start_date": start_date, "days": days, "status": "pending"}
    return {"request_id": request, "start_date": start_date, "days": days, "status": "pending"}


@server.tool(description="Status of a leave request", annotations=READ)
def leave_status(request_id: RequestId) -> dict:
    if request_id not in LEAVE:
        raise ToolError(f"leave request {request_id} not found")
    return {"request_id": request_id, **LEAVE[request_id]}


@server.tool(description="Cancel a leave request", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_leave(request_id: RequestId) -> dict:
    if request_id not in LEAVE or LEAVE[request_id]["status"] == "cancelled":
        raise ToolError(f"leave request {request_id} not found")
    LEAVE[request_id]["status"] = "cancelled"
    return {"request_id": request_id, "status": "cancelled"}


@server.tool(description="Submit an expense claim", annotations=WRITE)
def submit_expense(amount: Annotated[float, Field(gt=0, le=10000, description="Amount in dollars")],
                   category: Literal["travel", "meals", "equipment"]) -> dict:
    claim = f"EX-{next(NEXT_EXPENSE)}"
    EXPENSES[claim] = {"amount": amount, "category": category, "status": "pending"}
    return {"claim_id": claim, "amount": amount, "category": category, "status": "pending"}


@server.tool(description="Status of an expense claim", annotations=READ)
def expense_status(claim_id: Annotated[str, Field(pattern=r"^EX-[0-9]{4}$", description="Expense claim, e.g. EX-7001")]) -> dict:
    if claim_id not in EXPENSES:
        raise ToolError(f"expense claim {claim_id} not found")
    return {"claim_id": claim_id, **EXPENSES[claim_id]}


if __name__ == "__main__":
    run(server)
