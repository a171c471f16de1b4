"""MCP server of the dental-desk blind evaluation skill (round 20): the front
desk of Riverside Family Dental (Madison, WI; America/Chicago). Deterministic,
in-memory state seeded with a handful of patients, appointments, recalls and
insurance pre-authorisation requests. "Today" is pinned to 2026-12-01."""

from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-dental_desk")

TODAY = date(2026, 12, 1)

PatientId = Annotated[
    str,
    Field(
        pattern=r"^CHT-[0-9]{4}$",
        description="Patient chart number, e.g. CHT-1190",
    ),
]
AppointmentId = Annotated[
    str,
    Field(
        pattern=r"^DAP-[0-9]{4}$",
        description="Appointment number, e.g. DAP-5012",
    ),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD"),
]
ClockTime = Annotated[
    str,
    Field(
        pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
        description="Start time, 24-hour HH:MM",
    ),
]
Provider = Literal["DDS1", "DDS2", "HYG1", "HYG2"]
VisitType = Literal[
    "checkup",
    "cleaning",
    "filling",
    "crown",
    "root_canal",
    "extraction",
    "consultation",
    "emergency",
]
Procedure = Literal[
    "exam",
    "cleaning",
    "deep_cleaning",
    "filling",
    "crown",
    "root_canal",
    "extraction",
    "implant",
    "bridge",
    "dentures",
    "night_guard",
    "whitening",
]
RecallType = Literal["routine", "perio", "xrays"]
Tooth = Annotated[
    Annotated[int, Field(ge=1, le=32)] | None,
    Field(description="Tooth number (Universal numbering, 1-32), when the treatment is on one tooth"),
]

PROVIDERS = {
    "DDS1": "Dr. Amara Okafor (dentist)",
    "DDS2": "Dr. Henrik Lindqvist (dentist)",
    "HYG1": "Maria Santos (hygienist)",
    "HYG2": "Priya Natarajan (hygienist)",
}

PATIENTS = {
    "CHT-4821": {"name": "Margaret Dubois", "insurer": "Delta Dental", "balance": 0.00},
    "CHT-3307": {"name": "Daniel Kowalski", "insurer": "Delta Dental", "balance": 245.60},
    "CHT-5190": {"name": "Aisha Rahman", "insurer": "Cigna", "balance": 0.00},
    "CHT-2264": {"name": "Luis Fernandez", "insurer": "MetLife", "balance": 1120.00},
    "CHT-6048": {"name": "Grace Whitfield", "insurer": None, "balance": 85.00},
    "CHT-6049": {"name": "Lily Whitfield", "insurer": None, "balance": 0.00},
    "CHT-1875": {"name": "Owen Brennan", "insurer": "Guardian", "balance": 0.00},
    "CHT-7032": {"name": "Nadia Haddad", "insurer": "Aetna", "balance": 312.40},
}

APPOINTMENTS = {
    "DAP-7290": {"patient_id": "CHT-2264", "provider": "DDS1", "date": "2026-11-24", "time": "10:00", "visit_type": "filling", "status": "completed"},
    "DAP-7310": {"patient_id": "CHT-4821", "provider": "HYG1", "date": "2026-12-03", "time": "10:00", "visit_type": "cleaning", "status": "booked"},
    "DAP-7322": {"patient_id": "CHT-3307", "provider": "DDS1", "date": "2026-12-04", "time": "14:30", "visit_type": "filling", "status": "booked"},
    "DAP-7345": {"patient_id": "CHT-5190", "provider": "DDS2", "date": "2026-12-09", "time": "09:00", "visit_type": "crown", "status": "booked"},
    "DAP-7351": {"patient_id": "CHT-2264", "provider": "HYG2", "date": "2026-12-10", "time": "15:00", "visit_type": "checkup", "status": "booked"},
    "DAP-7368": {"patient_id": "CHT-6048", "provider": "DDS1", "date": "2026-12-15", "time": "11:00", "visit_type": "consultation", "status": "booked"},
    "DAP-7372": {"patient_id": "CHT-1875", "provider": "HYG1", "date": "2026-12-17", "time": "08:30", "visit_type": "cleaning", "status": "booked"},
    "DAP-7389": {"patient_id": "CHT-7032", "provider": "DDS2", "date": "2026-12-02", "time": "13:00", "visit_type": "root_canal", "status": "booked"},
    "DAP-7394": {"patient_id": "CHT-5190", "provider": "HYG2", "date": "2026-12-12", "time": "11:00", "visit_type": "checkup", "status": "booked"},
}

RECALLS = {
    ("CHT-4821", "routine"): {"interval_months": 6, "next_due": "2027-05-01"},
    ("CHT-2264", "perio"): {"interval_months": 3, "next_due": "2027-02-01"},
    ("CHT-3307", "routine"): {"interval_months": 6, "next_due": "2027-03-01"},
}

PREAUTHS = {
    "PRA-6620": {"patient_id": "CHT-2264", "procedure": "crown", "tooth": 19, "amount": 1450.00, "submitted": "2026-11-20", "status": "approved", "insurer_pays": 725.00},
    "PRA-6634": {"patient_id": "CHT-3307", "procedure": "root_canal", "tooth": 30, "amount": 1180.00, "submitted": "2026-11-26", "status": "pending", "insurer_pays": None},
}

FEES = {
    "exam": 95.00,
    "cleaning": 160.00,
    "deep_cleaning": 920.00,
    "filling": 210.00,
    "crown": 1450.00,
    "root_canal": 1180.00,
    "extraction": 240.00,
    "implant": 4200.00,
    "bridge": 3600.00,
    "dentures": 2800.00,
    "night_guard": 650.00,
    "whitening": 450.00,
}
COVERAGE = {  # share of the fee a typical plan here pays
    "exam": 1.0, "cleaning": 1.0,
    "deep_cleaning": 0.8, "filling": 0.8, "root_canal": 0.8, "extraction": 0.8,
    "crown": 0.5, "implant": 0.5, "bridge": 0.5, "dentures": 0.5, "night_guard": 0.5,
    "whitening": 0.0,
}

# Office hours: Monday-Friday 08:00-18:00, Saturday 08:00-13:00, closed Sunday.
HOURS = {0: ("08:00", "18:00"), 1: ("08:00", "18:00"), 2: ("08:00", "18:00"),
         3: ("08:00", "18:00"), 4: ("08:00", "18:00"), 5: ("08:00", "13:00")}

_next_appointment = 7400
_next_preauth = 6640


def _patient(patient_id: str) -> dict:
    patient = PATIENTS.get(patient_id)
    if patient is None:
        raise ToolError(f"No patient with chart number {patient_id}.")
    return patient


def _appointment(appointment_id: str) -> dict:
    appt = APPOINTMENTS.get(appointment_id)
    if appt is None:
        raise ToolError(f"No appointment {appointment_id} on the schedule.")
    if appt["status"] == "cancelled":
        raise ToolError(f"Appointment {appointment_id} was already cancelled.")
    if appt["status"] == "completed":
        raise ToolError(f"Appointment {appointment_id} has already taken place.")
    return appt


def _check_slot(day: str, time: str, provider: str, ignore: str | None = None) -> None:
    try:
        when = datetime.strptime(day, "%Y-%m-%d").date()
    except ValueError:
        raise ToolError(f"{day} is not a calendar date.") from None
    if when < TODAY:
        raise ToolError(f"{day} is in the past; today is {TODAY.isoformat()}.")
    hours = HOURS.get(when.weekday())
    if hours is None:
        raise ToolError(f"The practice is closed on Sundays ({day}).")
    if not (hours[0] <= time < hours[1]):
        raise ToolError(
            f"{time} is outside office hours on {when.strftime('%A')} ({hours[0]}-{hours[1]})."
        )
    for appt_id, appt in APPOINTMENTS.items():
        if appt_id == ignore or appt["status"] != "booked":
            continue
        if appt["provider"] == provider and appt["date"] == day and appt["time"] == time:
            raise ToolError(
                f"{PROVIDERS[provider]} already has {appt_id} at {time} on {day}."
            )


def _public(appt_id: str, appt: dict) -> dict:
    return {
        "appointment_id": appt_id,
        "patient_id": appt["patient_id"],
        "patient": PATIENTS[appt["patient_id"]]["name"],
        "provider": appt["provider"],
        "provider_name": PROVIDERS[appt["provider"]],
        "date": appt["date"],
        "time": appt["time"],
        "visit_type": appt["visit_type"],
        "status": appt["status"],
    }


def _add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    return date(day.year + month // 12, month % 12 + 1, 1)


@server.tool(
    description=(
        "Book a new appointment for a patient with a dentist or hygienist. "
        "Providers: DDS1 Dr. Amara Okafor, DDS2 Dr. Henrik Lindqvist (dentists); "
        "HYG1 Maria Santos, HYG2 Priya Natarajan (hygienists). Office hours "
        "Mon-Fri 08:00-18:00, Sat 08:00-13:00."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_appointment(
    patient_id: PatientId,
    provider: Annotated[Provider, Field(description="DDS1 Dr. Okafor, DDS2 Dr. Lindqvist, HYG1 Maria Santos, HYG2 Priya Natarajan")],
    date: IsoDate,
    time: ClockTime,
    visit_type: Annotated[VisitType, Field(description="What the visit is for")],
) -> dict:
    global _next_appointment
    _patient(patient_id)
    _check_slot(date, time, provider)
    appt_id = f"DAP-{_next_appointment}"
    _next_appointment += 1
    APPOINTMENTS[appt_id] = {
        "patient_id": patient_id,
        "provider": provider,
        "date": date,
        "time": time,
        "visit_type": visit_type,
        "status": "booked",
    }
    return _public(appt_id, APPOINTMENTS[appt_id])


@server.tool(
    description="Move an existing appointment to a new date and start time (same provider).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def reschedule_appointment(
    appointment_id: AppointmentId,
    new_date: IsoDate,
    new_time: ClockTime,
) -> dict:
    appt = _appointment(appointment_id)
    _check_slot(new_date, new_time, appt["provider"], ignore=appointment_id)
    previous = {"date": appt["date"], "time": appt["time"]}
    appt["date"] = new_date
    appt["time"] = new_time
    return {**_public(appointment_id, appt), "moved_from": previous}


@server.tool(
    description="Cancel a patient's upcoming appointment and free the slot.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_appointment(appointment_id: AppointmentId) -> dict:
    appt = _appointment(appointment_id)
    appt["status"] = "cancelled"
    return _public(appointment_id, appt)


@server.tool(
    description=(
        "Set (or change) a patient's recall: how often they should be called back. "
        "routine = check-up and cleaning, perio = periodontal (gum) maintenance, "
        "xrays = bitewing x-rays."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True),
)
def set_recall(
    patient_id: PatientId,
    interval_months: Annotated[int, Field(ge=1, le=36, description="Months between recall visits")],
    recall_type: Annotated[RecallType, Field(description="routine, perio or xrays")],
) -> dict:
    patient = _patient(patient_id)
    previous = RECALLS.get((patient_id, recall_type))
    next_due = _add_months(TODAY, interval_months).isoformat()
    RECALLS[(patient_id, recall_type)] = {"interval_months": interval_months, "next_due": next_due}
    return {
        "patient_id": patient_id,
        "patient": patient["name"],
        "recall_type": recall_type,
        "interval_months": interval_months,
        "next_due": next_due,
        "previous_interval_months": previous["interval_months"] if previous else None,
    }


@server.tool(
    description=(
        "Estimate what a treatment will cost a patient: the office fee, what their "
        "insurance is expected to pay and the patient's share. Does not book anything."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def estimate_treatment(
    patient_id: PatientId,
    procedure: Annotated[Procedure, Field(description="The treatment to price")],
    tooth: Tooth = None,
) -> dict:
    patient = _patient(patient_id)
    fee = FEES[procedure]
    share = COVERAGE[procedure] if patient["insurer"] else 0.0
    insurance = round(fee * share, 2)
    return {
        "patient_id": patient_id,
        "patient": patient["name"],
        "procedure": procedure,
        "tooth": tooth,
        "fee": fee,
        "insurer": patient["insurer"],
        "insurance_estimate": insurance,
        "patient_portion": round(fee - insurance, 2),
        "note": "An estimate, not a guarantee of payment by the insurer.",
    }


@server.tool(
    description=(
        "Send the patient's insurer a pre-authorisation (predetermination) request "
        "for a planned treatment, with the fee the office will charge."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def request_preauthorization(
    patient_id: PatientId,
    procedure: Annotated[Procedure, Field(description="The planned treatment")],
    amount: Annotated[float, Field(gt=0, le=50000, description="Fee submitted, in dollars")],
    tooth: Tooth = None,
) -> dict:
    global _next_preauth
    patient = _patient(patient_id)
    if not patient["insurer"]:
        raise ToolError(f"{patient['name']} ({patient_id}) has no dental insurance on file.")
    request_id = f"PRA-{_next_preauth}"
    _next_preauth += 1
    PREAUTHS[request_id] = {
        "patient_id": patient_id,
        "procedure": procedure,
        "tooth": tooth,
        "amount": round(amount, 2),
        "submitted": TODAY.isoformat(),
        "status": "pending",
        "insurer_pays": None,
    }
    return {
        "request_id": request_id,
        "patient_id": patient_id,
        "patient": patient["name"],
        "insurer": patient["insurer"],
        "procedure": procedure,
        "tooth": tooth,
        "amount": round(amount, 2),
        "status": "pending",
        "expected_answer_by": (TODAY + timedelta(days=14)).isoformat(),
    }


@server.tool(
    description=(
        "A patient's account: balance owing, insurer, upcoming and recent appointments, "
        "recalls and insurance pre-authorisation requests with their status."
    ),
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_patient_account(patient_id: PatientId) -> dict:
    patient = _patient(patient_id)
    appointments = [
        _public(appt_id, appt)
        for appt_id, appt in sorted(APPOINTMENTS.items(), key=lambda kv: (kv[1]["date"], kv[1]["time"]))
        if appt["patient_id"] == patient_id
    ]
    recalls = [
        {"recall_type": kind, **value}
        for (pid, kind), value in RECALLS.items()
        if pid == patient_id
    ]
    preauths = [
        {"request_id": rid, **{k: v for k, v in pa.items() if k != "patient_id"}}
        for rid, pa in PREAUTHS.items()
        if pa["patient_id"] == patient_id
    ]
    return {
        "patient_id": patient_id,
        "name": patient["name"],
        "insurer": patient["insurer"],
        "balance": patient["balance"],
        "appointments": appointments,
        "recalls": recalls,
        "preauthorizations": preauths,
    }


@server.tool(
    description=(
        "Write off (forgive) part or all of a patient's balance. Billing office only."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def write_off_balance(
    patient_id: PatientId,
    amount: Annotated[float, Field(gt=0, description="Amount to write off, in dollars")],
    reason: Annotated[str, Field(min_length=3, description="Why the balance is written off")],
) -> dict:
    patient = _patient(patient_id)
    if amount > patient["balance"]:
        raise ToolError(
            f"{patient_id} owes {patient['balance']:.2f}; cannot write off {amount:.2f}."
        )
    patient["balance"] = round(patient["balance"] - amount, 2)
    return {"patient_id": patient_id, "written_off": amount, "reason": reason, "balance": patient["balance"]}


if __name__ == "__main__":
    run(server)
