"""A childcare center's front office: an MCP server for a blind evaluation
set (blind/childcare-center.conv), written after the ninth blind round's
score and the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; absences, enrollments, tours, pickups and payments
change state. Deterministic: enrollments count from CH-500, tours from
TR-80."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-childcare")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

CHILDREN = {f"CH-10{n}": {"balance": 350.0 * (n % 3), "absences": [], "pickups": []} for n in range(1, 10)}
ENROLLED = itertools.count(500)
TOURS = itertools.count(80)

ChildId = Annotated[str, Field(pattern=r"^CH-[0-9]{3}$", description="Child, e.g. CH-101")]


def child(child_id: str) -> dict:
    if child_id not in CHILDREN:
        raise ToolError(f"child {child_id} not found")
    return CHILDREN[child_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="Record a child's absence on a day", annotations=WRITE)
def report_absence(child_id: ChildId, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    child(child_id)["absences"].append(day(date))
    return {"child_id": child_id, "absent_on": date}


@server.tool(description="Enroll a child in an age group from a start day", annotations=WRITE)
def enroll_child(age_group: Literal["infant", "toddler", "preschool"],
                 start_date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    child_id = f"CH-{next(ENROLLED)}"
    CHILDREN[child_id] = {"balance": 0.0, "absences": [], "pickups": [], "start": day(start_date)}
    return {"child_id": child_id, "age_group": age_group, "start_date": start_date}


@server.tool(description="Book a tour of the center on a day", annotations=WRITE)
def book_tour(date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    return {"tour": f"TR-{next(TOURS)}", "date": day(date), "time": "10:00"}


@server.tool(description="Allow a person to pick up a child", annotations=WRITE)
def authorize_pickup(child_id: ChildId, person: Annotated[str, Field(min_length=2, max_length=80)]) -> dict:
    child(child_id)["pickups"].append(person)
    return {"child_id": child_id, "authorized": person}


@server.tool(description="What is owed for a child", annotations=READ)
def invoice_balance(child_id: ChildId) -> dict:
    return {"child_id": child_id, "balance": child(child_id)["balance"]}


@server.tool(description="Take a payment towards a child's invoice", annotations=WRITE)
def pay_invoice(child_id: ChildId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = child(child_id)
    found["balance"] = round(found["balance"] - amount, 2)
    return {"child_id": child_id, "paid": amount, "balance": found["balance"]}


@server.tool(description="The center's opening hours", annotations=READ)
def center_hours() -> dict:
    return {"weekdays": "7:00-18:30", "weekends": "closed", "latest_pickup": "18:30"}


if __name__ == "__main__":
    run(server)
