"""Student transport desk of the Maple Valley School District: students' bus
routes and stops, stop changes, missed-pickup and late-bus reports, temporary
route changes and cancellations. In-memory, deterministic, seeded below.

A blind evaluation server (round 17): written from a brief naming only the domain."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-transport")

StudentId = Annotated[
    str,
    Field(pattern=r"^SID-[0-9]{6}$", description="Student id, e.g. SID-318842"),
]
RouteId = Annotated[
    str,
    Field(pattern=r"^SBR-[0-9]{3}$", description="Bus route id, e.g. SBR-214 (bus 214)"),
]
StopId = Annotated[
    str,
    Field(pattern=r"^SBS-[0-9]{4}$", description="Bus stop id, e.g. SBS-2207"),
]
IsoDate = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", description="Date, YYYY-MM-DD"),
]

ROUTES = {
    "SBR-214": {
        "school": "Lincoln Elementary",
        "driver": "Pat Reyes",
        "stops": [
            ("SBS-2201", "Birch Ln & Cedar Ct", "07:38", "15:41"),
            ("SBS-2204", "Oak St & 3rd Ave", "07:44", "15:35"),
            ("SBS-2207", "Maple Ave & 5th St", "07:49", "15:30"),
            ("SBS-2210", "Riverside Apartments (main entrance)", "07:55", "15:24"),
            ("SBS-2213", "Pine Ridge Rd & Elm St", "08:01", "15:18"),
        ],
    },
    "SBR-231": {
        "school": "Lincoln Elementary",
        "driver": "Dana Whitfield",
        "stops": [
            ("SBS-2301", "Willow Creek Dr & Aspen Way", "07:35", "15:46"),
            ("SBS-2304", "Hawthorne St & 9th Ave", "07:42", "15:39"),
            ("SBS-2307", "Sunset Terrace (cul-de-sac)", "07:50", "15:31"),
            ("SBS-2310", "Kingsley Park (north lot)", "07:57", "15:23"),
        ],
    },
    "SBR-307": {
        "school": "Jefferson Middle School",
        "driver": "Marcus Bell",
        "stops": [
            ("SBS-3071", "Harbor View Dr & Lake St", "07:05", "15:02"),
            ("SBS-3074", "Fairview Ave & 12th St", "07:12", "14:55"),
            ("SBS-3077", "Glenwood Library", "07:20", "14:47"),
        ],
    },
    "SBR-118": {
        "school": "Central High School",
        "driver": "Renee Okafor",
        "stops": [
            ("SBS-1181", "Mill Rd & Station St", "06:48", "14:52"),
            ("SBS-1184", "Cottonwood Plaza", "06:55", "14:45"),
            ("SBS-1187", "Granite Ave & 2nd St", "07:03", "14:37"),
        ],
    },
    "SBR-462": {
        "school": "Washington Elementary",
        "driver": "Tom Lindqvist",
        "stops": [
            ("SBS-4621", "Briarwood Ct", "07:30", "15:50"),
            ("SBS-4624", "Magnolia Dr & Bay St", "07:37", "15:43"),
            ("SBS-4627", "Northgate Community Center", "07:45", "15:35"),
        ],
    },
    "SBR-465": {
        "school": "Washington Elementary",
        "driver": "Gloria Nunez",
        "stops": [
            ("SBS-4651", "Lakeshore Blvd & Pier Rd", "07:32", "15:48"),
            ("SBS-4654", "Chestnut Hill Church", "07:40", "15:40"),
        ],
    },
    "SBR-590": {
        "school": "Central High School",
        "driver": "Ike Brandt",
        "stops": [
            ("SBS-5901", "Ridgeview Townhomes", "06:50", "14:50"),
            ("SBS-5904", "Old Mill Market", "06:58", "14:42"),
        ],
    },
}

STUDENTS = {
    "SID-318842": {"name": "Ava Thompson", "grade": 2, "school": "Lincoln Elementary",
                   "route": "SBR-214", "stop": "SBS-2201"},
    "SID-275190": {"name": "Mia Chen", "grade": 4, "school": "Lincoln Elementary",
                   "route": "SBR-214", "stop": "SBS-2204"},
    "SID-487736": {"name": "Sofia Martinez", "grade": 1, "school": "Lincoln Elementary",
                   "route": "SBR-231", "stop": "SBS-2304"},
    "SID-402517": {"name": "Noah Garcia", "grade": 7, "school": "Jefferson Middle School",
                   "route": "SBR-307", "stop": "SBS-3074"},
    "SID-624410": {"name": "Jayden Lee", "grade": 8, "school": "Jefferson Middle School",
                   "route": "SBR-307", "stop": "SBS-3071"},
    "SID-511368": {"name": "Liam Johnson", "grade": 10, "school": "Central High School",
                   "route": "SBR-118", "stop": "SBS-1184"},
    "SID-193375": {"name": "Chloe Wilson", "grade": 11, "school": "Central High School",
                   "route": "SBR-118", "stop": "SBS-1181"},
    "SID-339021": {"name": "Ethan Park", "grade": 5, "school": "Washington Elementary",
                   "route": "SBR-462", "stop": "SBS-4624"},
    "SID-260954": {"name": "Lucas Brown", "grade": 3, "school": "Washington Elementary",
                   "route": "SBR-465", "stop": "SBS-4651"},
}

# Requests and reports already on file, newest last.
RECORDS: list[dict] = [
    {"id": "SCR-6003", "kind": "stop_change", "student_id": "SID-487736",
     "stop_id": "SBS-2310", "effective_date": "2026-12-07",
     "submitted": "2026-11-24", "status": "pending — routing office reviewing"},
    {"id": "MPR-5012", "kind": "missed_pickup", "student_id": "SID-339021",
     "date": "2026-11-30", "run": "morning",
     "submitted": "2026-11-30", "status": "received — dispatch checking the bus GPS log"},
    {"id": "TRC-3008", "kind": "temporary_change", "student_id": "SID-260954",
     "route_id": "SBR-462", "stop_id": "SBS-4627", "run": "afternoon",
     "start_date": "2026-11-30", "days": 5,
     "submitted": "2026-11-23", "status": "approved"},
    {"id": "LBR-7040", "kind": "late_bus", "route_id": "SBR-214",
     "date": "2026-11-24", "run": "morning", "minutes_late": 12,
     "submitted": "2026-11-24", "status": "logged"},
]

COUNTERS = {"SCR": 6010, "MPR": 5020, "LBR": 7050, "TRC": 3010, "CXL": 8000}

TODAY = "2026-12-01"


def _next_id(prefix: str) -> str:
    COUNTERS[prefix] += 1
    return f"{prefix}-{COUNTERS[prefix]}"


def _student(student_id: str) -> dict:
    s = STUDENTS.get(student_id)
    if s is None:
        raise ToolError(f"No student with id {student_id} rides district transport. Check the student id (SID- and six digits).")
    return s


def _route(route_id: str) -> dict:
    r = ROUTES.get(route_id)
    if r is None:
        raise ToolError(f"No bus route {route_id}. Known routes: {', '.join(sorted(ROUTES))}.")
    return r


def _stop(stop_id: str) -> tuple[str, tuple]:
    for route_id, r in ROUTES.items():
        for stop in r["stops"]:
            if stop[0] == stop_id:
                return route_id, stop
    raise ToolError(f"No bus stop {stop_id}. list_route_stops shows each route's stops.")


def _stop_view(stop: tuple) -> dict:
    return {"stop_id": stop[0], "name": stop[1], "morning_pickup": stop[2], "afternoon_dropoff": stop[3]}


def _check_date(value: str, field: str) -> None:
    if value < "2026-08-20" or value > "2027-06-10":
        raise ToolError(f"{field} {value} is outside the 2026-27 school year (2026-08-20 to 2027-06-10).")


@server.tool(
    description="Look up a student's school bus assignment: school, route, stop, pickup and drop-off times, "
    "and every stop change, temporary change, missed-pickup or late-bus report and cancellation on file for them.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def get_student_transport(student_id: StudentId) -> dict:
    s = _student(student_id)
    _, stop = _stop(s["stop"])
    records = [r for r in RECORDS if r.get("student_id") == student_id
               or (r["kind"] == "late_bus" and r["route_id"] == s["route"])]
    return {
        "student_id": student_id,
        "name": s["name"],
        "grade": s["grade"],
        "school": s["school"],
        "route_id": s["route"],
        "driver": ROUTES[s["route"]]["driver"],
        "stop": _stop_view(stop),
        "requests_and_reports": records,
    }


@server.tool(
    description="List the stops of a bus route in order, with each stop's morning pickup and afternoon drop-off time "
    "and the school the route serves.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def list_route_stops(route_id: RouteId) -> dict:
    r = _route(route_id)
    return {
        "route_id": route_id,
        "school": r["school"],
        "driver": r["driver"],
        "stops": [_stop_view(s) for s in r["stops"]],
    }


@server.tool(
    description="Permanently change a student's regular bus stop (morning and afternoon) from a given date. The new "
    "stop must be on a route that serves the student's school; the student moves to that route if it is a different one.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def change_stop(student_id: StudentId, stop_id: StopId, effective_date: IsoDate) -> dict:
    s = _student(student_id)
    route_id, stop = _stop(stop_id)
    if ROUTES[route_id]["school"] != s["school"]:
        raise ToolError(f"Stop {stop_id} is on route {route_id}, which serves {ROUTES[route_id]['school']}, "
                        f"not {s['school']}.")
    _check_date(effective_date, "effective_date")
    rec = {"id": _next_id("SCR"), "kind": "stop_change", "student_id": student_id, "stop_id": stop_id,
           "effective_date": effective_date, "submitted": TODAY, "status": "scheduled"}
    RECORDS.append(rec)
    # The assignment shown by get_student_transport stays the current one; the
    # change is on file and takes effect on effective_date.
    return {**rec, "current_stop_id": s["stop"], "new_route_id": route_id, "new_stop": _stop_view(stop)}


@server.tool(
    description="Report that the bus did not pick a student up (never came, or drove past the stop) on a given "
    "date and run: morning (to school) or afternoon (home from school).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def report_missed_pickup(
    student_id: StudentId,
    date: IsoDate,
    run: Literal["morning", "afternoon"],
) -> dict:
    s = _student(student_id)
    _check_date(date, "date")
    rec = {"id": _next_id("MPR"), "kind": "missed_pickup", "student_id": student_id, "route_id": s["route"],
           "date": date, "run": run, "submitted": TODAY, "status": "received — dispatch will follow up"}
    RECORDS.append(rec)
    return rec


@server.tool(
    description="Report that a bus route ran late on a given date and run (morning or afternoon), and by how many minutes.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def report_late_bus(
    route_id: RouteId,
    date: IsoDate,
    run: Literal["morning", "afternoon"],
    minutes_late: Annotated[int, Field(ge=1, le=240, description="How many minutes late the bus was")],
) -> dict:
    _route(route_id)
    _check_date(date, "date")
    rec = {"id": _next_id("LBR"), "kind": "late_bus", "route_id": route_id, "date": date, "run": run,
           "minutes_late": minutes_late, "submitted": TODAY, "status": "logged"}
    RECORDS.append(rec)
    return rec


@server.tool(
    description="Request that a student ride a different route and/or get on or off at a different stop for a "
    "number of school days (e.g. staying with a relative), then go back to the regular assignment. "
    "run: morning, afternoon, or both. The route must serve the student's school.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
)
def request_temporary_change(
    student_id: StudentId,
    route_id: RouteId,
    stop_id: StopId,
    start_date: IsoDate,
    days: Annotated[int, Field(ge=1, le=30, description="Number of school days the temporary change lasts")],
    run: Literal["morning", "afternoon", "both"],
) -> dict:
    s = _student(student_id)
    r = _route(route_id)
    if r["school"] != s["school"]:
        raise ToolError(f"Route {route_id} serves {r['school']}, not {s['school']}.")
    if stop_id not in {st[0] for st in r["stops"]}:
        raise ToolError(f"Stop {stop_id} is not on route {route_id}.")
    _check_date(start_date, "start_date")
    rec = {"id": _next_id("TRC"), "kind": "temporary_change", "student_id": student_id, "route_id": route_id,
           "stop_id": stop_id, "run": run, "start_date": start_date, "days": days,
           "submitted": TODAY, "status": "approved"}
    RECORDS.append(rec)
    return rec


@server.tool(
    description="Cancel a student's bus transportation from a given date (the first school day they no longer ride).",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_transport(student_id: StudentId, effective_date: IsoDate) -> dict:
    s = _student(student_id)
    _check_date(effective_date, "effective_date")
    rec = {"id": _next_id("CXL"), "kind": "cancellation", "student_id": student_id, "route_id": s["route"],
           "effective_date": effective_date, "submitted": TODAY, "status": "scheduled"}
    RECORDS.append(rec)
    return rec


@server.tool(
    description="Dispatch only: cancel a whole run of a route (every student on it) for a date.",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True),
)
def cancel_route_run(
    route_id: RouteId,
    date: IsoDate,
    run: Literal["morning", "afternoon"],
) -> dict:
    _route(route_id)
    _check_date(date, "date")
    return {"route_id": route_id, "date": date, "run": run, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
