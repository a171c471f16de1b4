"""Bed management desk of a hospital (blind evaluation skill `beds-desk`):
free beds by ward, bed and patient status, bed assignment, ward transfer
requests, discharge scheduling and bed cleaning requests. Deterministic
in-memory state seeded with a few wards, beds and patients."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-beds")

Ward = Literal["ICU", "CCU", "MED", "SURG", "ORTHO", "MAT", "PEDS"]
BedType = Literal["standard", "isolation", "bariatric", "monitored"]
CleanType = Literal["standard", "terminal"]

BedId = Annotated[
    str,
    Field(pattern=r"^BED-[0-9]{4}$", description="Bed id, e.g. BED-3301"),
]
PatientId = Annotated[
    str,
    Field(pattern=r"^MRN-[0-9]{6}$", description="Patient medical record number, e.g. MRN-204417"),
]

WARD_HELP = ("Ward code: ICU intensive care, CCU coronary care, MED general medicine, "
             "SURG general surgery, ORTHO orthopaedics, MAT maternity, PEDS paediatrics")

WARD_NAMES = {
    "ICU": "Intensive Care Unit",
    "CCU": "Coronary Care Unit",
    "MED": "General Medicine",
    "SURG": "General Surgery",
    "ORTHO": "Orthopaedics",
    "MAT": "Maternity",
    "PEDS": "Paediatrics",
}


def _bed(ward: str, bed_type: str, status: str, patient: str | None = None) -> dict:
    return {"ward": ward, "bed_type": bed_type, "status": status, "patient_id": patient, "cleaning": None}


# status: free (clean, empty) | occupied | dirty (empty, waiting for a clean)
BEDS: dict[str, dict] = {
    "BED-1101": _bed("ICU", "monitored", "occupied", "MRN-135790"),
    "BED-1102": _bed("ICU", "monitored", "free"),
    "BED-1103": _bed("ICU", "isolation", "dirty"),
    "BED-1104": _bed("ICU", "monitored", "occupied", "MRN-246802"),
    "BED-2201": _bed("CCU", "monitored", "occupied", "MRN-451093"),
    "BED-2202": _bed("CCU", "monitored", "free"),
    "BED-2203": _bed("CCU", "monitored", "free"),
    "BED-2204": _bed("CCU", "monitored", "dirty"),
    "BED-3301": _bed("MED", "standard", "free"),
    "BED-3302": _bed("MED", "standard", "occupied", "MRN-204417"),
    "BED-3303": _bed("MED", "isolation", "free"),
    "BED-3304": _bed("MED", "standard", "dirty"),
    "BED-3305": _bed("MED", "bariatric", "free"),
    "BED-3306": _bed("MED", "standard", "occupied", "MRN-370158"),
    "BED-3307": _bed("MED", "standard", "free"),
    "BED-3308": _bed("MED", "isolation", "dirty"),
    "BED-3309": _bed("MED", "standard", "occupied", "MRN-563014"),
    "BED-4401": _bed("SURG", "standard", "occupied", "MRN-318250"),
    "BED-4402": _bed("SURG", "standard", "free"),
    "BED-4403": _bed("SURG", "standard", "dirty"),
    "BED-4404": _bed("SURG", "standard", "free"),
    "BED-4405": _bed("SURG", "standard", "occupied", "MRN-481526"),
    "BED-4406": _bed("SURG", "isolation", "dirty"),
    "BED-5501": _bed("ORTHO", "standard", "occupied", "MRN-800215"),
    "BED-5502": _bed("ORTHO", "standard", "free"),
    "BED-5503": _bed("ORTHO", "standard", "dirty"),
    "BED-5504": _bed("ORTHO", "bariatric", "free"),
    "BED-6601": _bed("MAT", "standard", "occupied", "MRN-912648"),
    "BED-6602": _bed("MAT", "standard", "free"),
    "BED-6603": _bed("MAT", "standard", "free"),
    "BED-6604": _bed("MAT", "standard", "dirty"),
    "BED-6605": _bed("MAT", "standard", "occupied", "MRN-640275"),
    "BED-7701": _bed("PEDS", "standard", "free"),
    "BED-7702": _bed("PEDS", "standard", "free"),
    "BED-7703": _bed("PEDS", "isolation", "dirty"),
}


def _patient(name: str, location: str, bed: str | None = None) -> dict:
    return {"name": name, "location": location, "bed_id": bed, "transfer": None, "discharge": None}


PATIENTS: dict[str, dict] = {
    "MRN-135790": _patient("Peter Nguyen", "ICU", "BED-1101"),
    "MRN-246802": _patient("Ruth Abernathy", "ICU", "BED-1104"),
    "MRN-451093": _patient("Evelyn Hart", "CCU", "BED-2201"),
    "MRN-204417": _patient("Maria Delgado", "MED", "BED-3302"),
    "MRN-370158": _patient("Frank Osei", "MED", "BED-3306"),
    "MRN-563014": _patient("Walter Brennan", "MED", "BED-3309"),
    "MRN-318250": _patient("Thomas Okafor", "SURG", "BED-4401"),
    "MRN-481526": _patient("Linda Marsh", "SURG", "BED-4405"),
    "MRN-800215": _patient("George Whitfield", "ORTHO", "BED-5501"),
    "MRN-912648": _patient("Hannah Kowalski", "MAT", "BED-6601"),
    "MRN-640275": _patient("Ivy Castellano", "MAT", "BED-6605"),
    # admitted, waiting in the emergency department for a bed
    "MRN-527781": _patient("Samuel Brooks", "ED"),
    "MRN-603342": _patient("Aisha Rahman", "ED"),
    "MRN-719906": _patient("Leo Fischer (age 7)", "ED"),
    "MRN-655120": _patient("Grace Liu", "ED"),
    "MRN-588431": _patient("Daniel Mercer", "ED"),
    "MRN-742093": _patient("Omar Haddad", "ED"),
    "MRN-391807": _patient("Beatrice Lang", "ED"),
}

COUNTERS = {"TRF": 5100, "DSC": 7300, "CLN": 8800}


def _next(prefix: str) -> str:
    COUNTERS[prefix] += 1
    return f"{prefix}-{COUNTERS[prefix]}"


def _get_bed(bed_id: str) -> dict:
    bed = BEDS.get(bed_id)
    if bed is None:
        raise ToolError(f"Unknown bed {bed_id}: no bed with that id on any ward.")
    return bed


def _get_patient(patient_id: str) -> dict:
    patient = PATIENTS.get(patient_id)
    if patient is None:
        raise ToolError(f"Unknown patient {patient_id}: no admitted patient has that MRN.")
    return patient


def _bed_view(bed_id: str) -> dict:
    bed = BEDS[bed_id]
    view = {"bed_id": bed_id, "ward": bed["ward"], "ward_name": WARD_NAMES[bed["ward"]], **{
        k: bed[k] for k in ("bed_type", "status", "patient_id", "cleaning")}}
    if bed["patient_id"]:
        view["patient_name"] = PATIENTS[bed["patient_id"]]["name"]
    return view


def _patient_view(patient_id: str) -> dict:
    p = PATIENTS[patient_id]
    return {"patient_id": patient_id, **p}


@server.tool(
    description="List the free (clean, empty) beds on a ward, optionally only of one bed type.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_free_beds(
    ward: Annotated[Ward, Field(description=WARD_HELP)],
    bed_type: Annotated[BedType | None, Field(description="Only beds of this type")] = None,
) -> dict:
    beds = [
        _bed_view(bid) for bid, b in BEDS.items()
        if b["ward"] == ward and b["status"] == "free" and (bed_type is None or b["bed_type"] == bed_type)
    ]
    return {"ward": ward, "ward_name": WARD_NAMES[ward], "free_beds": beds, "count": len(beds)}


@server.tool(
    description="Show one bed: its ward, type, status (free, occupied, dirty), occupant and any cleaning request.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_bed(bed_id: BedId) -> dict:
    _get_bed(bed_id)
    return _bed_view(bed_id)


@server.tool(
    description="Show one patient: where they are, their bed, and any transfer request or scheduled discharge.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_patient(patient_id: PatientId) -> dict:
    _get_patient(patient_id)
    return _patient_view(patient_id)


@server.tool(
    description="Assign a patient to a free bed. A bed the patient had before is left dirty for cleaning.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def assign_bed(patient_id: PatientId, bed_id: BedId) -> dict:
    patient = _get_patient(patient_id)
    bed = _get_bed(bed_id)
    if bed["patient_id"] == patient_id:
        return {"patient_id": patient_id, "bed_id": bed_id, "status": "already_assigned"}
    if bed["status"] == "occupied":
        raise ToolError(f"Bed {bed_id} is occupied by {bed['patient_id']}; choose a free bed.")
    if bed["status"] == "dirty":
        raise ToolError(f"Bed {bed_id} is waiting to be cleaned and cannot take a patient yet.")
    old = patient["bed_id"]
    if old:
        BEDS[old].update(status="dirty", patient_id=None)
    bed.update(status="occupied", patient_id=patient_id)
    patient.update(bed_id=bed_id, location=bed["ward"])
    return {"patient_id": patient_id, "patient_name": patient["name"], "bed_id": bed_id,
            "ward": bed["ward"], "previous_bed": old, "status": "assigned"}


@server.tool(
    description="Request a transfer of an admitted patient to another ward; the receiving ward allocates the bed.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def transfer_patient(
    patient_id: PatientId,
    to_ward: Annotated[Ward, Field(description="Receiving ward. " + WARD_HELP)],
) -> dict:
    patient = _get_patient(patient_id)
    if patient["location"] == to_ward:
        raise ToolError(f"{patient_id} is already on {WARD_NAMES[to_ward]}.")
    free = [bid for bid, b in BEDS.items() if b["ward"] == to_ward and b["status"] == "free"]
    transfer = {"transfer_id": _next("TRF"), "from": patient["location"], "to_ward": to_ward,
                "status": "bed_available" if free else "waiting_for_bed"}
    patient["transfer"] = transfer
    return {"patient_id": patient_id, "patient_name": patient["name"], **transfer}


@server.tool(
    description="Schedule (or reschedule) a patient's discharge for a date and time.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def schedule_discharge(
    patient_id: PatientId,
    discharge_date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")],
    discharge_time: Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, 24-hour")],
) -> dict:
    patient = _get_patient(patient_id)
    if not patient["bed_id"]:
        raise ToolError(f"{patient_id} has no bed yet; a discharge can only be scheduled for a patient on a ward.")
    previous = patient["discharge"]
    discharge = {"discharge_id": previous["discharge_id"] if previous else _next("DSC"),
                 "date": discharge_date, "time": discharge_time, "bed_id": patient["bed_id"]}
    patient["discharge"] = discharge
    return {"patient_id": patient_id, "patient_name": patient["name"],
            "status": "rescheduled" if previous else "scheduled", **discharge}


@server.tool(
    description="Ask housekeeping to clean an empty bed: a standard turnover clean or a terminal (infection) clean.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def request_cleaning(
    bed_id: BedId,
    clean_type: Annotated[CleanType, Field(description="standard turnover clean, or terminal deep clean after an infectious or isolated patient")],
) -> dict:
    bed = _get_bed(bed_id)
    if bed["status"] == "occupied":
        raise ToolError(f"Bed {bed_id} is occupied; it can be cleaned once the patient has left it.")
    cleaning = bed["cleaning"]
    if cleaning:
        cleaning["clean_type"] = clean_type
        result = "updated"
    else:
        cleaning = {"request_id": _next("CLN"), "clean_type": clean_type, "status": "queued"}
        bed["cleaning"] = cleaning
        result = "requested"
    return {"bed_id": bed_id, "ward": bed["ward"], "result": result, **cleaning}


@server.tool(
    description="Set a bed's status directly (housekeeping and bed managers only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def set_bed_status(bed_id: BedId, status: Literal["free", "dirty", "closed"]) -> dict:
    bed = _get_bed(bed_id)
    if bed["status"] == "occupied":
        raise ToolError(f"Bed {bed_id} is occupied.")
    bed["status"] = status
    return {"bed_id": bed_id, "status": status}


if __name__ == "__main__":
    run(server)
