"""A tax preparer's front desk: an MCP server for a blind evaluation set
(blind/tax-office.conv), written after the eleventh blind round's score and
the changes after it, before any tuning on it. Quotes and refund lookups say
`readOnlyHint: true`; appointments, cancellations, payments and extensions
change state. Deterministic: new appointments count from TA-500."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-taxes")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

ReturnType = Literal["personal", "business", "amended"]
FEES = {"personal": 250.0, "business": 900.0, "amended": 180.0}
APPOINTMENTS = {f"TA-20{n}": {"status": "booked"} for n in range(1, 10)}
RETURNS = {f"TX-400{n}": {"refund": "processing", "paid": 0.0, "extension": False} for n in range(1, 10)}
RETURNS["TX-4005"]["refund"] = "sent 2026-11-20"
NEXT = itertools.count(500)
ReturnId = Annotated[str, Field(pattern=r"^TX-[0-9]{4}$", description="Return, e.g. TX-4001")]


def tax_return(return_id: str) -> dict:
    if return_id not in RETURNS:
        raise ToolError(f"return {return_id} not found")
    return RETURNS[return_id]


@server.tool(description="Book an appointment to prepare a return of a type on a day", annotations=WRITE)
def book_appointment(return_type: ReturnType, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    appointment_id = f"TA-{next(NEXT)}"
    APPOINTMENTS[appointment_id] = {"status": "booked"}
    return {"appointment_id": appointment_id, "return_type": return_type, "date": date}


@server.tool(description="Cancel a tax appointment",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_appointment(appointment_id: Annotated[str, Field(pattern=r"^TA-[0-9]{3}$")]) -> dict:
    if appointment_id not in APPOINTMENTS:
        raise ToolError(f"appointment {appointment_id} not found")
    found = APPOINTMENTS[appointment_id]
    if found["status"] == "cancelled":
        raise ToolError(f"appointment {appointment_id} is already cancelled")
    found["status"] = "cancelled"
    return {"appointment_id": appointment_id, "status": "cancelled"}


@server.tool(description="The preparation fee for a type of return", annotations=READ)
def fee_quote(return_type: ReturnType) -> dict:
    return {"return_type": return_type, "fee": FEES[return_type]}


@server.tool(description="Take a payment of the preparation fee for a return", annotations=WRITE)
def pay_fee(return_id: ReturnId, amount: Annotated[float, Field(gt=0)]) -> dict:
    found = tax_return(return_id)
    found["paid"] += amount
    return {"return_id": return_id, "paid": found["paid"]}


@server.tool(description="File an extension for a return", annotations=WRITE)
def file_extension(return_id: ReturnId) -> dict:
    found = tax_return(return_id)
    found["extension"] = True
    return {"return_id": return_id, "extension": "filed", "new_deadline": "2027-10-15"}


@server.tool(description="Where a return's refund stands", annotations=READ)
def refund_status(return_id: ReturnId) -> dict:
    found = tax_return(return_id)
    return {"return_id": return_id, "refund": found["refund"], "extension": found["extension"]}


if __name__ == "__main__":
    run(server)
