"""Clinical lab sample desk: the MCP server behind the `lab-desk` skill.

Clinic staff register samples, order tests on them, read results, book the
courier and ask the lab to reject a sample or re-run a test. Deterministic
in-memory state, seeded with a handful of patients, sites and samples; the
clock is pinned to Tuesday 2026-12-01 09:30 (America/Chicago)."""

from datetime import date, datetime
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-labsamples")

NOW = datetime(2026, 12, 1, 9, 30)

SampleId = Annotated[
    str,
    Field(pattern=r"^SMP-[0-9]{4}$", description="Sample id, e.g. SMP-4821"),
]
PatientMrn = Annotated[
    str,
    Field(pattern=r"^MRN-[0-9]{6}$", description="Patient medical record number, e.g. MRN-204518"),
]
SiteId = Annotated[
    str,
    Field(
        pattern=r"^CLN-[0-9]{3}$",
        description=(
            "Clinic site id: CLN-101 Northgate Family Practice, CLN-102 Riverside Pediatrics, "
            "CLN-103 Eastwood Women's Health, CLN-104 Harbor Street Urgent Care, "
            "CLN-105 Millbrook Dialysis Center"
        ),
    ),
]
SpecimenType = Literal["whole_blood", "serum", "plasma", "urine", "swab"]
TestCode = Literal[
    "CBC", "HBA1C", "BMP", "CMP", "LIPID", "TSH", "CRP", "PT_INR", "UA", "URINE_CULTURE", "RESP_PCR"
]
Priority = Literal["routine", "urgent", "stat"]
RejectReason = Literal["hemolyzed", "clotted", "insufficient_volume", "mislabeled", "wrong_tube", "too_old"]

TEST_SPECIMEN: dict[str, str] = {
    "CBC": "whole_blood",
    "HBA1C": "whole_blood",
    "BMP": "serum",
    "CMP": "serum",
    "LIPID": "serum",
    "TSH": "serum",
    "CRP": "serum",
    "PT_INR": "plasma",
    "UA": "urine",
    "URINE_CULTURE": "urine",
    "RESP_PCR": "swab",
}

SITES: dict[str, str] = {
    "CLN-101": "Northgate Family Practice",
    "CLN-102": "Riverside Pediatrics",
    "CLN-103": "Eastwood Women's Health",
    "CLN-104": "Harbor Street Urgent Care",
    "CLN-105": "Millbrook Dialysis Center",
}

PATIENTS: set[str] = {
    "MRN-204518",
    "MRN-311907",
    "MRN-150266",
    "MRN-287430",
    "MRN-402115",
    "MRN-519340",
    "MRN-633012",
    "MRN-745201",
}


def _test(code: str, status: str, priority: str = "routine", result: str | None = None) -> dict:
    return {"test_code": code, "priority": priority, "status": status, "result": result, "reruns": 0}


SAMPLES: dict[str, dict] = {
    "SMP-4821": {
        "patient_mrn": "MRN-204518", "specimen_type": "whole_blood", "collected_at": "2026-11-30T08:10",
        "tube_count": 2, "site_id": "CLN-101", "status": "resulted",
        "tests": [
            _test("CBC", "resulted", result="WBC 6.2, Hgb 12.9, Plt 241 - within range"),
            _test("HBA1C", "resulted", result="HbA1c 7.4% (high)"),
        ],
    },
    "SMP-4822": {
        "patient_mrn": "MRN-204518", "specimen_type": "serum", "collected_at": "2026-11-30T08:10",
        "tube_count": 1, "site_id": "CLN-101", "status": "in_progress",
        "tests": [
            _test("BMP", "resulted", result="Na 139, K 5.9 (high), Cl 101, CO2 24, BUN 18, Cr 1.0, Glu 131"),
            _test("LIPID", "in_progress"),
        ],
    },
    "SMP-4830": {
        "patient_mrn": "MRN-311907", "specimen_type": "serum", "collected_at": "2026-11-30T15:45",
        "tube_count": 1, "site_id": "CLN-104", "status": "resulted",
        "tests": [_test("BMP", "resulted", "urgent", "K 6.8 (critical), slight hemolysis noted")],
    },
    "SMP-4831": {
        "patient_mrn": "MRN-311907", "specimen_type": "whole_blood", "collected_at": "2026-11-30T15:45",
        "tube_count": 1, "site_id": "CLN-104", "status": "resulted",
        "tests": [_test("CBC", "resulted", "urgent", "WBC 14.8 (high), Hgb 11.2, Plt 96 (low)")],
    },
    "SMP-4835": {
        "patient_mrn": "MRN-150266", "specimen_type": "urine", "collected_at": "2026-12-01T07:50",
        "tube_count": 1, "site_id": "CLN-103", "status": "in_progress",
        "tests": [_test("UA", "in_progress")],
    },
    "SMP-4838": {
        "patient_mrn": "MRN-150266", "specimen_type": "serum", "collected_at": "2026-12-01T07:50",
        "tube_count": 1, "site_id": "CLN-103", "status": "received",
        "tests": [_test("TSH", "ordered")],
    },
    "SMP-4840": {
        "patient_mrn": "MRN-287430", "specimen_type": "whole_blood", "collected_at": "2026-12-01T08:05",
        "tube_count": 1, "site_id": "CLN-102", "status": "received", "tests": [],
    },
    "SMP-4844": {
        "patient_mrn": "MRN-402115", "specimen_type": "plasma", "collected_at": "2026-12-01T08:30",
        "tube_count": 1, "site_id": "CLN-105", "status": "resulted",
        "tests": [_test("PT_INR", "resulted", "stat", "PT 31.5 s, INR 3.9 (high)")],
    },
    "SMP-4847": {
        "patient_mrn": "MRN-287430", "specimen_type": "serum", "collected_at": "2026-12-01T08:05",
        "tube_count": 1, "site_id": "CLN-102", "status": "received", "tests": [],
    },
    "SMP-4849": {
        "patient_mrn": "MRN-402115", "specimen_type": "serum", "collected_at": "2026-12-01T08:30",
        "tube_count": 2, "site_id": "CLN-105", "status": "resulted",
        "tests": [
            _test("CMP", "resulted", "urgent", "ALT 412 (high), AST 388 (high), Alb 3.9, Cr 4.1 (high)"),
            _test("CRP", "resulted", "urgent", "CRP 0.1 mg/L"),
        ],
    },
    "SMP-4852": {
        "patient_mrn": "MRN-519340", "specimen_type": "urine", "collected_at": "2026-12-01T08:40",
        "tube_count": 1, "site_id": "CLN-101", "status": "received",
        "tests": [_test("URINE_CULTURE", "ordered")],
    },
    "SMP-4853": {
        "patient_mrn": "MRN-519340", "specimen_type": "serum", "collected_at": "2026-12-01T08:40",
        "tube_count": 1, "site_id": "CLN-101", "status": "received", "tests": [],
    },
    "SMP-4856": {
        "patient_mrn": "MRN-633012", "specimen_type": "whole_blood", "collected_at": "2026-11-30T11:20",
        "tube_count": 1, "site_id": "CLN-104", "status": "resulted",
        "tests": [_test("CBC", "resulted", result="WBC 7.0, Hgb 13.8, Plt 210 - within range")],
    },
    "SMP-4858": {
        "patient_mrn": "MRN-633012", "specimen_type": "urine", "collected_at": "2026-12-01T08:55",
        "tube_count": 1, "site_id": "CLN-104", "status": "received",
        "tests": [_test("UA", "ordered")],
    },
    "SMP-4861": {
        "patient_mrn": "MRN-745201", "specimen_type": "whole_blood", "collected_at": "2026-12-01T09:00",
        "tube_count": 1, "site_id": "CLN-103", "status": "received",
        "tests": [_test("CBC", "ordered")],
    },
    "SMP-4863": {
        "patient_mrn": "MRN-745201", "specimen_type": "plasma", "collected_at": "2026-12-01T09:00",
        "tube_count": 1, "site_id": "CLN-103", "status": "received",
        "tests": [_test("PT_INR", "ordered")],
    },
}

PICKUPS: dict[str, dict] = {
    "CUR-3301": {"site_id": "CLN-101", "pickup_date": "2026-12-01", "pickup_time": "11:00", "cooler_count": 2, "status": "scheduled"},
    "CUR-3302": {"site_id": "CLN-104", "pickup_date": "2026-12-01", "pickup_time": "15:30", "cooler_count": 1, "status": "scheduled"},
}

_next_sample = 4901
_next_pickup = 3401


def _sample(sample_id: str) -> dict:
    sample = SAMPLES.get(sample_id)
    if sample is None:
        raise ToolError(f"Unknown sample {sample_id}: no sample with that id is registered")
    return sample


def _view(sample_id: str) -> dict:
    s = SAMPLES[sample_id]
    return {
        "sample_id": sample_id,
        "patient_mrn": s["patient_mrn"],
        "specimen_type": s["specimen_type"],
        "collected_at": s["collected_at"],
        "tube_count": s["tube_count"],
        "site": f'{s["site_id"]} {SITES[s["site_id"]]}' if s.get("site_id") else None,
        "status": s["status"],
        "rejection_reason": s.get("rejection_reason"),
        "tests": [dict(t) for t in s["tests"]],
    }


@server.tool(
    description=(
        "Register a newly collected sample for a patient and get its sample id. "
        "collected_at is the collection date and time, YYYY-MM-DDTHH:MM, clinic local time."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def register_sample(
    patient_mrn: PatientMrn,
    specimen_type: Annotated[
        SpecimenType,
        Field(description="whole_blood (EDTA, lavender/purple top), serum (SST, gold/red top), "
                          "plasma (citrate, light blue top), urine (cup), swab"),
    ],
    collected_at: Annotated[
        str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$", description="YYYY-MM-DDTHH:MM")
    ],
    tube_count: Annotated[int, Field(ge=1, le=12, description="Number of tubes or containers")],
) -> dict:
    global _next_sample
    if patient_mrn not in PATIENTS:
        raise ToolError(f"Unknown patient {patient_mrn}: no patient with that MRN is on file")
    try:
        when = datetime.strptime(collected_at, "%Y-%m-%dT%H:%M")
    except ValueError as exc:
        raise ToolError(f"collected_at {collected_at} is not a valid date and time") from exc
    if when > NOW:
        raise ToolError(f"collected_at {collected_at} is in the future")
    if (NOW - when).days >= 3:
        raise ToolError(f"collected_at {collected_at} is more than 3 days ago: the sample is too old to register")
    sample_id = f"SMP-{_next_sample}"
    _next_sample += 1
    SAMPLES[sample_id] = {
        "patient_mrn": patient_mrn, "specimen_type": specimen_type, "collected_at": collected_at,
        "tube_count": tube_count, "site_id": None, "status": "received", "tests": [],
    }
    return _view(sample_id)


@server.tool(
    description="Order one test on a registered sample, with its priority.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def order_test(
    sample_id: SampleId,
    test_code: Annotated[TestCode, Field(description="Test to run")],
    priority: Annotated[Priority, Field(description="routine, urgent or stat")],
) -> dict:
    s = _sample(sample_id)
    if s["status"] == "rejected":
        raise ToolError(f"Sample {sample_id} was rejected ({s.get('rejection_reason')}); a new sample is needed")
    needed = TEST_SPECIMEN[test_code]
    if needed != s["specimen_type"]:
        raise ToolError(f"{test_code} needs a {needed} sample; {sample_id} is {s['specimen_type']}")
    if any(t["test_code"] == test_code for t in s["tests"]):
        raise ToolError(f"{test_code} is already ordered on {sample_id}")
    s["tests"].append(_test(test_code, "ordered", priority))
    if s["status"] == "resulted":
        s["status"] = "in_progress"
    return {"ordered": True, "sample_id": sample_id, "test_code": test_code, "priority": priority,
            "sample": _view(sample_id)}


@server.tool(
    description="A sample's details: patient, specimen, status, the tests ordered on it and their results.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_sample(sample_id: SampleId) -> dict:
    _sample(sample_id)
    return _view(sample_id)


@server.tool(
    description="List the samples registered for a patient, newest first.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_samples(patient_mrn: PatientMrn) -> dict:
    if patient_mrn not in PATIENTS:
        raise ToolError(f"Unknown patient {patient_mrn}: no patient with that MRN is on file")
    found = [_view(sid) for sid, s in SAMPLES.items() if s["patient_mrn"] == patient_mrn]
    found.sort(key=lambda v: (v["collected_at"], v["sample_id"]), reverse=True)
    return {"patient_mrn": patient_mrn, "count": len(found), "samples": found}


@server.tool(
    description=(
        "Book a courier pickup of sample coolers at a clinic site. pickup_date is YYYY-MM-DD, "
        "pickup_time is HH:MM (24 h, clinic local time); couriers run 07:00-19:00 on weekdays."
    ),
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def schedule_pickup(
    site_id: SiteId,
    pickup_date: Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="YYYY-MM-DD")],
    pickup_time: Annotated[str, Field(pattern=r"^[0-2][0-9]:[0-5][0-9]$", description="HH:MM, 24 h")],
    cooler_count: Annotated[int, Field(ge=1, le=20, description="Number of sample coolers to collect")],
) -> dict:
    global _next_pickup
    if site_id not in SITES:
        raise ToolError(f"Unknown site {site_id}: the courier does not serve a site with that id")
    try:
        day = date.fromisoformat(pickup_date)
    except ValueError as exc:
        raise ToolError(f"pickup_date {pickup_date} is not a valid date") from exc
    hour, minute = (int(x) for x in pickup_time.split(":"))
    if hour > 23:
        raise ToolError(f"pickup_time {pickup_time} is not a valid time")
    if datetime(day.year, day.month, day.day, hour, minute) <= NOW:
        raise ToolError(f"{pickup_date} {pickup_time} is in the past")
    if day.weekday() >= 5:
        raise ToolError(f"{pickup_date} is a weekend day: couriers run on weekdays only")
    if not (7 <= hour < 19):
        raise ToolError(f"{pickup_time} is outside courier hours (07:00-19:00)")
    pickup_id = f"CUR-{_next_pickup}"
    _next_pickup += 1
    PICKUPS[pickup_id] = {"site_id": site_id, "pickup_date": pickup_date, "pickup_time": pickup_time,
                          "cooler_count": cooler_count, "status": "scheduled"}
    return {"pickup_id": pickup_id, "site": f"{site_id} {SITES[site_id]}", **PICKUPS[pickup_id]}


@server.tool(
    description="Reject a sample the lab cannot use, with the reason; the clinic is told to redraw.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True),
)
def reject_sample(
    sample_id: SampleId,
    reason: Annotated[
        RejectReason,
        Field(description="hemolyzed, clotted, insufficient_volume (QNS), mislabeled (label missing or "
                          "not matching), wrong_tube, too_old (past stability)"),
    ],
) -> dict:
    s = _sample(sample_id)
    if s["status"] == "rejected":
        raise ToolError(f"Sample {sample_id} is already rejected ({s.get('rejection_reason')})")
    s["status"] = "rejected"
    s["rejection_reason"] = reason
    for t in s["tests"]:
        if t["status"] != "resulted":
            t["status"] = "cancelled"
    return {"rejected": True, "sample_id": sample_id, "reason": reason, "redraw_needed": True,
            "patient_mrn": s["patient_mrn"]}


@server.tool(
    description="Ask the lab to run a test again on the same sample (a test already ordered on it).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
)
def rerun_test(
    sample_id: SampleId,
    test_code: Annotated[TestCode, Field(description="The test to run again")],
) -> dict:
    s = _sample(sample_id)
    if s["status"] == "rejected":
        raise ToolError(f"Sample {sample_id} was rejected ({s.get('rejection_reason')}); it cannot be re-run")
    test = next((t for t in s["tests"] if t["test_code"] == test_code), None)
    if test is None:
        raise ToolError(f"{test_code} was never ordered on {sample_id}; order it instead")
    if test["status"] != "resulted":
        raise ToolError(f"{test_code} on {sample_id} has no result yet ({test['status']})")
    test["reruns"] += 1
    test["status"] = "rerun_requested"
    s["status"] = "in_progress"
    return {"rerun_requested": True, "sample_id": sample_id, "test_code": test_code,
            "previous_result": test["result"]}


@server.tool(
    description="Overwrite a reported result value (pathologist use only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False),
)
def amend_result(
    sample_id: SampleId,
    test_code: Annotated[TestCode, Field(description="Test whose result is amended")],
    value: Annotated[str, Field(description="The new result text")],
) -> dict:
    s = _sample(sample_id)
    test = next((t for t in s["tests"] if t["test_code"] == test_code), None)
    if test is None or test["status"] != "resulted":
        raise ToolError(f"{test_code} on {sample_id} has no result to amend")
    old = test["result"]
    test["result"] = f"{value} (amended)"
    return {"amended": True, "sample_id": sample_id, "test_code": test_code, "old": old, "new": test["result"]}


if __name__ == "__main__":
    run(server)
