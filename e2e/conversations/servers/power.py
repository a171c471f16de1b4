"""A power company's account desk: an MCP server for a blind evaluation set
(blind/), written before any tuning on it. Lookups say `readOnlyHint: true`;
payments, meter readings and outage reports change state. Deterministic:
payments count from PAY-6001, outage tickets from OUT-301."""

import itertools
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-power")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

ACCOUNTS = {
    "ACC-10001": {"balance": 182.40, "due_date": "2026-12-15", "last_reading": 45210},
    "ACC-10002": {"balance": 0.0, "due_date": "", "last_reading": 11800},
    "ACC-20417": {"balance": 1250.00, "due_date": "2026-12-01", "last_reading": 70111},
    "ACC-30555": {"balance": 2400.00, "due_date": "2026-12-20", "last_reading": 87400},
}
OUTAGES = {"94107": "crews on site, power back by 6pm"}
NEXT_PAYMENT = itertools.count(6001)
NEXT_TICKET = itertools.count(301)

Account = Annotated[str, Field(pattern=r"^ACC-[0-9]{5}$", description="Account number, e.g. ACC-10001")]
Zip = Annotated[str, Field(pattern=r"^[0-9]{5}$", description="ZIP code")]


def account(account_number: str) -> dict:
    if account_number not in ACCOUNTS:
        raise ToolError(f"account {account_number} not found")
    return ACCOUNTS[account_number]


@server.tool(description="Balance and due date of an account", annotations=READ)
def account_balance(account_number: Account) -> dict:
    found = account(account_number)
    return {"account_number": account_number, "balance": round(found["balance"], 2), "due_date": found["due_date"]}


@server.tool(description="Pay toward an account's bill", annotations=WRITE)
def pay_bill(account_number: Account, amount: Annotated[float, Field(gt=0, le=10000, description="Dollars")]) -> dict:
    found = account(account_number)
    found["balance"] = round(found["balance"] - amount, 2)
    return {"payment_id": f"PAY-{next(NEXT_PAYMENT)}", "account_number": account_number, "amount": amount,
            "new_balance": found["balance"]}


@server.tool(description="Record a meter reading", annotations=WRITE)
def submit_meter_reading(account_number: Account, reading: Annotated[int, Field(ge=0, description="kWh on the meter")]) -> dict:
    found = account(account_number)
    if reading < found["last_reading"]:
        raise ToolError(f"reading: {reading} is below the last reading {found['last_reading']}")
    found["last_reading"] = reading
    return {"account_number": account_number, "reading": reading, "status": "recorded"}


@server.tool(description="Report a power outage", annotations=WRITE)
def report_outage(zip: Zip) -> dict:
    ticket = f"OUT-{next(NEXT_TICKET)}"
    OUTAGES.setdefault(zip, "reported, a crew is being assigned")
    return {"ticket": ticket, "zip": zip, "status": OUTAGES[zip]}


@server.tool(description="Known outages in an area", annotations=READ)
def outage_status(zip: Zip) -> dict:
    return {"zip": zip, "outage": zip in OUTAGES, "status": OUTAGES.get(zip, "no known outage")}


if __name__ == "__main__":
    run(server)
