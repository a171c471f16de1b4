"""A vet clinic's desk: an MCP server for a fifth blind evaluation set
(blind/vet-clinic.conv), written after the third blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; bookings, cancellations
and food orders change state. Deterministic: appointments count from
APT-4001, orders from FO-501."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-vet")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

PETS = {
    "PET-101": {"name": "Bella", "species": "dog", "last_vaccination": "2026-03-01", "next_due": "2027-03-01"},
    "PET-102": {"name": "Milo", "species": "cat", "last_vaccination": "2025-12-15", "next_due": "2026-12-15"},
    "PET-205": {"name": "Rex", "species": "dog", "last_vaccination": "2025-06-01", "next_due": "overdue since 2026-06-01"},
}
APPOINTMENTS = {
    "APT-3001": {"pet_id": "PET-101", "service": "checkup", "date": "2026-12-03", "status": "confirmed"},
    "APT-3002": {"pet_id": "PET-102", "service": "dental", "date": "2026-12-05", "status": "confirmed"},
    "APT-3003": {"pet_id": "PET-205", "service": "vaccination", "date": "2026-12-07", "status": "confirmed"},
    "APT-3004": {"pet_id": "PET-101", "service": "vaccination", "date": "2026-12-09", "status": "confirmed"},
    "APT-3005": {"pet_id": "PET-205", "service": "checkup", "date": "2026-12-10", "status": "confirmed"},
    "APT-3006": {"pet_id": "PET-102", "service": "checkup", "date": "2026-12-12", "status": "confirmed"},
    "APT-3007": {"pet_id": "PET-101", "service": "dental", "date": "2026-12-19", "status": "confirmed"},
}
NEXT_APPOINTMENT = itertools.count(4001)
NEXT_ORDER = itertools.count(501)

PetId = Annotated[str, Field(pattern=r"^PET-[0-9]{3}$", description="Pet number, e.g. PET-101")]
AppointmentId = Annotated[str, Field(pattern=r"^APT-[0-9]{4}$", description="Appointment, e.g. APT-3001")]


def pet(pet_id: str) -> dict:
    if pet_id not in PETS:
        raise ToolError(f"pet {pet_id} not found")
    return PETS[pet_id]


@server.tool(description="Book a visit for a pet", annotations=WRITE)
def book_appointment(pet_id: PetId, service: Literal["checkup", "vaccination", "dental"],
                     date: Annotated[str, Field(description="Day of the visit, YYYY-MM-DD")]) -> dict:
    found = pet(pet_id)
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    appointment = f"APT-{next(NEXT_APPOINTMENT)}"
    APPOINTMENTS[appointment] = {"pet_id": pet_id, "service": service, "date": date, "status": "confirmed"}
    return {"appointment_id": appointment, "pet": found["name"], "service": service, "date": date,
            "status": "confirmed"}


@server.tool(description="Cancel an appointment", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_appointment(appointment_id: AppointmentId) -> dict:
    found = APPOINTMENTS.get(appointment_id)
    if found is None or found["status"] == "cancelled":
        raise ToolError(f"appointment {appointment_id} not found")
    found["status"] = "cancelled"
    return {"appointment_id": appointment_id, "status": "cancelled"}


@server.tool(description="Status of an appointment", annotations=READ)
def appointment_status(appointment_id: AppointmentId) -> dict:
    if appointment_id not in APPOINTMENTS:
        raise ToolError(f"appointment {appointment_id} not found")
    return {"appointment_id": appointment_id, **APPOINTMENTS[appointment_id]}


@server.tool(description="A pet's vaccinations: the last one and when the next is due", annotations=READ)
def vaccination_record(pet_id: PetId) -> dict:
    found = pet(pet_id)
    return {"pet_id": pet_id, "pet": found["name"], "last_vaccination": found["last_vaccination"],
            "next_due": found["next_due"]}


@server.tool(description="Order bags of the clinic's pet food", annotations=WRITE)
def order_food(pet_id: PetId, bags: Annotated[int, Field(ge=1, le=20, description="Bags of food")]) -> dict:
    found = pet(pet_id)
    return {"order_id": f"FO-{next(NEXT_ORDER)}", "pet": found["name"], "bags": bags, "status": "ordered"}


if __name__ == "__main__":
    run(server)
