"""A car repair shop's front desk: an MCP server for a blind evaluation set
(blind/auto-garage.conv), written after the sixth blind round's score and the
changes after it, before any tuning on it. Lookups say `readOnlyHint: true`;
bookings, cancellations and go-aheads change state. Deterministic: new jobs
count from SV-5000."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-garage")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

Service = Literal["oil change", "tire rotation", "brake check", "inspection"]
PRICES = {"oil change": 49, "tire rotation": 35, "brake check": 80, "inspection": 60}
JOBS = {f"SV-400{n}": {"service": "brake check", "status": "in progress", "approved_up_to": 0} for n in range(1, 9)}
JOBS["SV-4001"]["status"] = "ready for pickup"
NEXT = itertools.count(5000)

JobId = Annotated[str, Field(pattern=r"^SV-[0-9]{4}$", description="Job, e.g. SV-4001")]


def job(job_id: str) -> dict:
    if job_id not in JOBS:
        raise ToolError(f"job {job_id} not found")
    return JOBS[job_id]


@server.tool(description="Book a service appointment", annotations=WRITE)
def book_service(date: Annotated[str, Field(description="YYYY-MM-DD")], service: Service) -> dict:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    job_id = f"SV-{next(NEXT)}"
    JOBS[job_id] = {"service": service, "status": "booked", "approved_up_to": 0}
    return {"job_id": job_id, "date": date, "service": service, "status": "booked"}


@server.tool(description="How a repair job is going", annotations=READ)
def service_status(job_id: JobId) -> dict:
    return {"job_id": job_id, **job(job_id)}


@server.tool(description="Cancel a booked service", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_service(job_id: JobId) -> dict:
    found = job(job_id)
    if found["status"] == "cancelled":
        raise ToolError(f"job {job_id} is already cancelled")
    found["status"] = "cancelled"
    return {"job_id": job_id, "status": "cancelled"}


@server.tool(description="The price of a service", annotations=READ)
def quote(service: Service) -> dict:
    return {"service": service, "price": PRICES[service]}


@server.tool(description="Record the driver's go-ahead for extra work up to an amount", annotations=WRITE)
def approve_extra_work(job_id: JobId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = job(job_id)
    found["approved_up_to"] = amount
    return {"job_id": job_id, "approved_up_to": amount, "status": "go-ahead recorded"}


@server.tool(description="The garage's opening hours", annotations=READ)
def opening_hours() -> dict:
    return {"weekdays": "7:30-18:00", "saturday": "8:00-13:00", "sunday": "closed"}


if __name__ == "__main__":
    run(server)
