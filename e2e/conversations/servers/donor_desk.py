"""MCP server of the `donor-desk` skill (a blind evaluation skill, round 21):
a regional blood donation center's donor desk. Deterministic, in-memory state
seeded with a few donors, donor centers, mobile drives and appointments.
Today is 2026-12-01 for every rule that needs a date."""

from datetime import date, timedelta
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field
from serve import run

server = MCPServer("blind-donor_desk")

TODAY = date(2026, 12, 1)

DonorId = Annotated[str, Field(pattern=r"^DNR-[0-9]{6}$", description="Donor number, e.g. DNR-318842")]
AppointmentId = Annotated[str, Field(pattern=r"^BDA-[0-9]{5}$", description="Appointment confirmation number, e.g. BDA-50231")]
LocationId = Annotated[
    str,
    Field(
        pattern=r"^(BDC-[0-9]{3}|MDR-[0-9]{4})$",
        description="A donor center (BDC-101 Downtown, BDC-102 Riverside, BDC-103 Northgate Mall) or a mobile drive (MDR-NNNN)",
    ),
]
DriveId = Annotated[str, Field(pattern=r"^MDR-[0-9]{4}$", description="Mobile blood drive code, e.g. MDR-2207")]
IsoDate = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD")]
ClockTime = Annotated[str, Field(pattern=r"^([01][0-9]|2[0-3]):(00|30)$", description="Start time, 24-hour HH:MM on the hour or half hour")]
DonationType = Literal["whole_blood", "power_red", "platelets", "plasma"]
Reward = Literal["tshirt", "movie_tickets", "gift_card_25", "gift_card_50", "charity_gift"]

# Days a donor waits after a donation of this type before donating again.
INTERVAL_DAYS = {"whole_blood": 56, "power_red": 112, "platelets": 7, "plasma": 28}

REWARDS = {
    "tshirt": {"points": 500, "label": "Donor T-shirt"},
    "movie_tickets": {"points": 900, "label": "Two movie tickets"},
    "gift_card_25": {"points": 1500, "label": "$25 e-gift card"},
    "gift_card_50": {"points": 2800, "label": "$50 e-gift card"},
    "charity_gift": {"points": 1000, "label": "$10 given in your name to the Children's Hospital family fund"},
}

# Donor centers: open weekdays (0 = Monday), hours, donation types, chairs per half hour.
CENTERS = {
    "BDC-101": {
        "name": "Downtown Donor Center",
        "address": "410 Main Street",
        "days": {0, 1, 2, 3, 4, 5},
        "open": "07:00",
        "close": "19:00",
        "types": ["whole_blood", "power_red", "platelets", "plasma"],
        "chairs": 4,
    },
    "BDC-102": {
        "name": "Riverside Donor Center",
        "address": "2200 River Road",
        "days": {0, 1, 2, 3, 4, 5},
        "open": "08:00",
        "close": "17:00",
        "types": ["whole_blood", "power_red", "platelets"],
        "chairs": 4,
    },
    "BDC-103": {
        "name": "Northgate Donor Center",
        "address": "Northgate Mall, upper level",
        "days": {0, 1, 2, 3, 4, 5, 6},
        "open": "10:00",
        "close": "20:00",
        "types": ["whole_blood", "plasma"],
        "chairs": 4,
    },
}

DRIVES = {
    "MDR-2207": {
        "host": "Lincoln High School (gym)",
        "date": "2026-12-04",
        "open": "09:00",
        "close": "15:00",
        "types": ["whole_blood", "power_red"],
        "chairs": 6,
        "capacity": 80,
        "group_reserved": 18,
    },
    "MDR-2210": {
        "host": "Halvorsen Foods headquarters",
        "date": "2026-12-10",
        "open": "10:00",
        "close": "16:00",
        "types": ["whole_blood"],
        "chairs": 6,
        "capacity": 60,
        "group_reserved": 0,
    },
    "MDR-2214": {
        "host": "St. Brigid's Parish Hall",
        "date": "2026-12-13",
        "open": "08:30",
        "close": "13:30",
        "types": ["whole_blood"],
        "chairs": 6,
        "capacity": 45,
        "group_reserved": 12,
    },
    "MDR-2219": {
        "host": "Eastfield Community College",
        "date": "2026-12-16",
        "open": "10:00",
        "close": "17:00",
        "types": ["whole_blood", "power_red"],
        "chairs": 6,
        "capacity": 70,
        "group_reserved": 0,
    },
}


def _donor(name, blood_type, last, points, deferral=None, rewards=None):
    return {
        "name": name,
        "blood_type": blood_type,
        "last_donation": last,  # (date, type) or None
        "points": points,
        "deferral": deferral,
        "rewards": list(rewards or []),
    }


DONORS = {
    "DNR-318842": _donor("Maria Gutierrez", "O-", ("2026-09-14", "whole_blood"), 1850),
    "DNR-204815": _donor("James Whitaker", "A+", ("2026-11-24", "platelets"), 2400),
    "DNR-577120": _donor(
        "Priya Raman",
        "B+",
        ("2026-06-02", "whole_blood"),
        600,
        deferral={"kind": "temporary", "reason": "travel to a malaria-risk area", "until": "2027-01-15"},
    ),
    "DNR-410093": _donor("Tom Becker", "AB+", ("2026-11-02", "plasma"), 3200),
    "DNR-129977": _donor(
        "Denise Okafor",
        "O+",
        ("2026-10-20", "power_red"),
        950,
        rewards=[{"redemption_id": "RWD-07781", "reward": "tshirt", "points": 500, "date": "2026-10-20", "status": "shipped"}],
    ),
    "DNR-665301": _donor("Kevin Lindqvist", "unknown (first donation)", None, 0),
    "DNR-552019": _donor("Angela Fitzroy", "A-", ("2026-08-30", "whole_blood"), 1200),
    "DNR-781456": _donor("Luis Moreno", "O+", ("2026-07-11", "whole_blood"), 400),
    "DNR-781460": _donor("Elena Moreno", "A+", ("2026-06-20", "whole_blood"), 300),
    "DNR-903318": _donor("Grace Liu", "B-", ("2026-10-30", "plasma"), 700),
    "DNR-440287": _donor("Marcus Bell", "O+", ("2026-08-01", "whole_blood"), 1100),
    "DNR-356612": _donor("Hannah Schultz", "O-", ("2026-07-15", "power_red"), 1600),
    "DNR-618274": _donor("Robert Chen", "A+", ("2026-09-01", "whole_blood"), 800),
    "DNR-209934": _donor("Olivia Grant", "B+", ("2026-08-20", "whole_blood"), 500),
    "DNR-845530": _donor("Sam Okoro", "O+", ("2026-05-02", "whole_blood"), 2100),
    "DNR-127364": _donor("Nadia Petrov", "O-", ("2026-06-10", "whole_blood"), 650),
    "DNR-390517": _donor("Derek Walsh", "A-", ("2026-07-30", "whole_blood"), 350),
    "DNR-730048": _donor("Ruth Adeyemi", "B+", ("2026-10-02", "whole_blood"), 1300),
}

APPOINTMENTS = {
    "BDA-50231": {"donor_id": "DNR-318842", "location_id": "BDC-102", "date": "2026-12-05", "time": "10:00", "donation_type": "whole_blood", "status": "booked"},
    "BDA-50244": {"donor_id": "DNR-204815", "location_id": "BDC-101", "date": "2026-12-08", "time": "08:00", "donation_type": "platelets", "status": "booked"},
    "BDA-50260": {"donor_id": "DNR-410093", "location_id": "BDC-103", "date": "2026-12-03", "time": "17:30", "donation_type": "plasma", "status": "booked"},
    "BDA-50275": {"donor_id": "DNR-552019", "location_id": "MDR-2207", "date": "2026-12-04", "time": "11:30", "donation_type": "whole_blood", "status": "booked"},
    "BDA-50291": {"donor_id": "DNR-356612", "location_id": "BDC-102", "date": "2026-12-07", "time": "09:00", "donation_type": "power_red", "status": "booked"},
    "BDA-50302": {"donor_id": "DNR-903318", "location_id": "BDC-103", "date": "2026-12-03", "time": "12:00", "donation_type": "plasma", "status": "booked"},
    "BDA-50309": {"donor_id": "DNR-618274", "location_id": "BDC-102", "date": "2026-12-05", "time": "14:00", "donation_type": "whole_blood", "status": "booked"},
    "BDA-50318": {"donor_id": "DNR-440287", "location_id": "BDC-101", "date": "2026-12-03", "time": "16:00", "donation_type": "whole_blood", "status": "booked"},
    "BDA-50327": {"donor_id": "DNR-209934", "location_id": "BDC-103", "date": "2026-12-04", "time": "13:00", "donation_type": "whole_blood", "status": "booked"},
}

GROUP_RESERVATIONS: dict[str, dict] = {}

_counters = {"appointment": 50400, "redemption": 8100, "group": 3300}


def _next_id(kind: str, prefix: str, width: int) -> str:
    _counters[kind] += 1
    return f"{prefix}-{_counters[kind]:0{width}d}"


def _parse_date(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a real date (YYYY-MM-DD)")


def _minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _get_donor(donor_id: str) -> dict:
    donor = DONORS.get(donor_id)
    if donor is None:
        raise ToolError(f"No donor with number {donor_id}. Check the number on the donor card (DNR- and six digits).")
    return donor


def _get_appointment(appointment_id: str) -> dict:
    appt = APPOINTMENTS.get(appointment_id)
    if appt is None:
        raise ToolError(f"No appointment {appointment_id}. Confirmation numbers look like BDA-50231.")
    return appt


def _location(location_id: str) -> dict:
    if location_id in CENTERS:
        c = CENTERS[location_id]
        return {"kind": "center", "name": c["name"], **c}
    if location_id in DRIVES:
        d = DRIVES[location_id]
        return {"kind": "drive", "name": d["host"], **d}
    raise ToolError(
        f"Unknown location {location_id}. Donor centers are BDC-101 (Downtown), BDC-102 (Riverside) and BDC-103 (Northgate); "
        "December mobile drives are MDR-2207, MDR-2210, MDR-2214 and MDR-2219."
    )


def _closed_reason(loc: dict, day: date) -> str | None:
    if day < TODAY:
        return f"{day.isoformat()} is in the past"
    if loc["kind"] == "drive":
        if day.isoformat() != loc["date"]:
            return f"the {loc['name']} drive runs only on {loc['date']}"
        return None
    if day.weekday() not in loc["days"]:
        return f"{loc['name']} is closed on {day.strftime('%A')}s"
    return None


def _half_hours(loc: dict) -> list[str]:
    out = []
    t = _minutes(loc["open"])
    last = _minutes(loc["close"]) - 30
    while t <= last:
        out.append(f"{t // 60:02d}:{t % 60:02d}")
        t += 30
    return out


def _booked(location_id: str, day: str, time: str) -> int:
    return sum(
        1
        for a in APPOINTMENTS.values()
        if a["status"] == "booked" and a["location_id"] == location_id and a["date"] == day and a["time"] == time
    )


def _next_eligible(donor: dict) -> str:
    last = donor["last_donation"]
    if last is None:
        return TODAY.isoformat()
    when = date.fromisoformat(last[0]) + timedelta(days=INTERVAL_DAYS[last[1]])
    return max(when, TODAY).isoformat()


def _check_slot(donor_id: str, location_id: str, day_s: str, time: str, donation_type: str, ignore: str | None = None) -> dict:
    donor = _get_donor(donor_id)
    loc = _location(location_id)
    day = _parse_date(day_s, "date")
    reason = _closed_reason(loc, day)
    if reason:
        raise ToolError(f"Cannot book: {reason}.")
    if donation_type not in loc["types"]:
        raise ToolError(f"{loc['name']} does not collect {donation_type}; it collects {', '.join(loc['types'])}.")
    if time not in _half_hours(loc):
        raise ToolError(f"{loc['name']} takes start times from {loc['open']} to {_half_hours(loc)[-1]}; {time} is outside its hours.")
    if donor["deferral"]:
        d = donor["deferral"]
        raise ToolError(f"{donor['name']} is deferred ({d['reason']}) until {d['until']} and cannot be booked before then.")
    eligible = _next_eligible(donor)
    if day_s < eligible:
        raise ToolError(f"{donor['name']} is not eligible to donate again until {eligible}.")
    taken = _booked(location_id, day_s, time)
    if ignore and APPOINTMENTS[ignore]["location_id"] == location_id and APPOINTMENTS[ignore]["date"] == day_s and APPOINTMENTS[ignore]["time"] == time:
        taken -= 1
    if taken >= loc["chairs"]:
        raise ToolError(f"{time} on {day_s} at {loc['name']} is full; try another half hour.")
    return loc


def _appointment_view(appointment_id: str) -> dict:
    a = APPOINTMENTS[appointment_id]
    loc = _location(a["location_id"])
    return {"appointment_id": appointment_id, **a, "location_name": loc["name"]}


@server.tool(
    description="Look up a donor's record: name, blood type, last donation, the next date they may donate, "
    "any deferral, reward points balance and redemptions, and their appointments (booked and cancelled).",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def lookup_donor(donor_id: DonorId) -> dict:
    donor = _get_donor(donor_id)
    last = donor["last_donation"]
    return {
        "donor_id": donor_id,
        "name": donor["name"],
        "blood_type": donor["blood_type"],
        "last_donation": {"date": last[0], "donation_type": last[1]} if last else None,
        "next_eligible_date": donor["deferral"]["until"] if donor["deferral"] else _next_eligible(donor),
        "deferral": donor["deferral"],
        "points_balance": donor["points"],
        "reward_redemptions": donor["rewards"],
        "appointments": [_appointment_view(k) for k, a in APPOINTMENTS.items() if a["donor_id"] == donor_id],
    }


@server.tool(
    description="List the open start times at a donor center or a mobile drive on a date, with how many chairs are free "
    "at each half hour and which donation types the location collects.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def find_open_slots(location_id: LocationId, date: IsoDate) -> dict:
    loc = _location(location_id)
    day = _parse_date(date, "date")
    base = {"location_id": location_id, "location_name": loc["name"], "date": date, "donation_types": loc["types"]}
    reason = _closed_reason(loc, day)
    if reason:
        return {**base, "open": False, "note": reason, "slots": []}
    slots = []
    for t in _half_hours(loc):
        free = loc["chairs"] - _booked(location_id, date, t)
        if free > 0:
            slots.append({"time": t, "free_chairs": free})
    return {**base, "open": True, "slots": slots}


@server.tool(
    description="Book a donation appointment for a donor at a donor center or a mobile drive.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def book_appointment(
    donor_id: DonorId,
    location_id: LocationId,
    date: IsoDate,
    time: ClockTime,
    donation_type: Annotated[DonationType, Field(description="whole_blood, power_red (double red cells), platelets or plasma")],
) -> dict:
    loc = _check_slot(donor_id, location_id, date, time, donation_type)
    appointment_id = _next_id("appointment", "BDA", 5)
    APPOINTMENTS[appointment_id] = {
        "donor_id": donor_id,
        "location_id": location_id,
        "date": date,
        "time": time,
        "donation_type": donation_type,
        "status": "booked",
    }
    return {**_appointment_view(appointment_id), "address": loc.get("address", loc["name"])}


@server.tool(
    description="Move a booked appointment to a new date and start time at the same location, for the same donation type.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def reschedule_appointment(appointment_id: AppointmentId, new_date: IsoDate, new_time: ClockTime) -> dict:
    appt = _get_appointment(appointment_id)
    if appt["status"] != "booked":
        raise ToolError(f"Appointment {appointment_id} is {appt['status']} and cannot be moved; book a new one instead.")
    _check_slot(appt["donor_id"], appt["location_id"], new_date, new_time, appt["donation_type"], ignore=appointment_id)
    previous = {"date": appt["date"], "time": appt["time"]}
    appt["date"] = new_date
    appt["time"] = new_time
    return {**_appointment_view(appointment_id), "previous": previous}


@server.tool(
    description="Cancel a booked appointment.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_appointment(appointment_id: AppointmentId) -> dict:
    appt = _get_appointment(appointment_id)
    if appt["status"] != "booked":
        raise ToolError(f"Appointment {appointment_id} is already {appt['status']}.")
    appt["status"] = "cancelled"
    return _appointment_view(appointment_id)


@server.tool(
    description="Hold a block of donor slots at a mobile blood drive for a group (a company, school, club or congregation).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def reserve_drive_slots(
    drive_id: DriveId,
    group_name: Annotated[str, Field(min_length=2, max_length=120, description="Name of the group the slots are held for")],
    slots: Annotated[int, Field(ge=1, le=100, description="Number of donor slots to hold")],
) -> dict:
    drive = DRIVES.get(drive_id)
    if drive is None:
        raise ToolError(f"No mobile drive {drive_id}. December drives are MDR-2207, MDR-2210, MDR-2214 and MDR-2219.")
    left = drive["capacity"] - drive["group_reserved"]
    if slots > left:
        raise ToolError(f"The {drive['host']} drive has only {left} slots left to hold.")
    drive["group_reserved"] += slots
    reservation_id = _next_id("group", "GRP", 4)
    GROUP_RESERVATIONS[reservation_id] = {"drive_id": drive_id, "group_name": group_name, "slots": slots}
    return {
        "reservation_id": reservation_id,
        "drive_id": drive_id,
        "host": drive["host"],
        "date": drive["date"],
        "group_name": group_name,
        "slots": slots,
        "slots_left_at_drive": drive["capacity"] - drive["group_reserved"],
    }


@server.tool(
    description="Spend a donor's reward points on an item from the donor rewards catalog: tshirt (500 points), "
    "movie_tickets (900), gift_card_25 (1500), gift_card_50 (2800), charity_gift (1000).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def redeem_reward(donor_id: DonorId, reward: Reward) -> dict:
    donor = _get_donor(donor_id)
    item = REWARDS[reward]
    if donor["points"] < item["points"]:
        raise ToolError(f"{donor['name']} has {donor['points']} points; {item['label']} needs {item['points']}.")
    donor["points"] -= item["points"]
    redemption = {
        "redemption_id": _next_id("redemption", "RWD", 5),
        "reward": reward,
        "points": item["points"],
        "date": TODAY.isoformat(),
        "status": "processing",
    }
    donor["rewards"].append(redemption)
    return {**redemption, "label": item["label"], "points_balance": donor["points"]}


@server.tool(
    description="Remove a deferral from a donor's record so they can be booked again (medical staff only).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def lift_deferral(donor_id: DonorId, note: Annotated[str, Field(min_length=3, description="Why the deferral is lifted")]) -> dict:
    donor = _get_donor(donor_id)
    if not donor["deferral"]:
        raise ToolError(f"{donor['name']} has no deferral.")
    lifted = donor["deferral"]
    donor["deferral"] = None
    return {"donor_id": donor_id, "lifted": lifted, "note": note}


if __name__ == "__main__":
    run(server)
