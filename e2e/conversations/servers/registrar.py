"""A university registrar's desk: an MCP server for a blind evaluation set
(blind/course-registrar.conv), written after the fifth blind round's score and
the changes after it, before any tuning on it. Lookups say
`readOnlyHint: true`; enrollments, drops and transcript orders change state.
Deterministic."""

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-registrar")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

COURSES = {
    "CS101": {"title": "Intro to Programming", "meets": "Mon/Wed 9:00", "seats_left": 12},
    "MATH201": {"title": "Linear Algebra", "meets": "Tue/Thu 11:00", "seats_left": 4},
    "HIST110": {"title": "World History", "meets": "Fri 14:00", "seats_left": 30},
    "BIO150": {"title": "Cell Biology", "meets": "Mon/Wed 13:00", "seats_left": 2},
    "ECON220": {"title": "Microeconomics", "meets": "Tue 10:00", "seats_left": 9},
}
STUDENTS = {f"S1002{n:02d}": {"courses": {"HIST110", "CS101"}, "owed": 1500.0 + 250 * n} for n in range(1, 11)}
GRADES = {"fall": {"CS101": "A-", "HIST110": "B+"}, "spring": {"MATH201": "B"}, "summer": {}}

CourseCode = Annotated[str, Field(pattern=r"^[A-Z]{2,4}[0-9]{3}$", description="Course, e.g. CS101")]
StudentId = Annotated[str, Field(pattern=r"^S[0-9]{6}$", description="Student, e.g. S100201")]


def student(student_id: str) -> dict:
    if student_id not in STUDENTS:
        raise ToolError(f"student {student_id} not found")
    return STUDENTS[student_id]


def course(code: str) -> dict:
    if code not in COURSES:
        raise ToolError(f"course {code} not found")
    return COURSES[code]


@server.tool(description="A course's title, schedule and seats left", annotations=READ)
def course_info(course_code: CourseCode) -> dict:
    return {"course_code": course_code, **course(course_code)}


@server.tool(description="Enroll a student in a course", annotations=WRITE)
def enroll_course(student_id: StudentId, course_code: CourseCode) -> dict:
    found = student(student_id)
    course(course_code)
    found["courses"].add(course_code)
    return {"student_id": student_id, "course_code": course_code, "status": "enrolled"}


@server.tool(description="Drop a course from a student's schedule",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def drop_course(student_id: StudentId, course_code: CourseCode) -> dict:
    found = student(student_id)
    course(course_code)
    found["courses"].discard(course_code)
    return {"student_id": student_id, "course_code": course_code, "status": "dropped"}


@server.tool(description="A student's grades for a term", annotations=READ)
def grades(student_id: StudentId, term: Literal["fall", "spring", "summer"]) -> dict:
    student(student_id)
    return {"student_id": student_id, "term": term, "grades": GRADES[term]}


@server.tool(description="Tuition a student still owes", annotations=READ)
def tuition_balance(student_id: StudentId) -> dict:
    return {"student_id": student_id, "owed": student(student_id)["owed"], "due": "2027-01-15"}


@server.tool(description="Order an official transcript", annotations=WRITE)
def request_transcript(student_id: StudentId, delivery: Literal["email", "mail", "pickup"]) -> dict:
    student(student_id)
    return {"student_id": student_id, "delivery": delivery, "status": "ordered"}


if __name__ == "__main__":
    run(server)
