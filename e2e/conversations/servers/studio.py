"""A photo studio's booking desk: an MCP server for a blind evaluation set
(blind/photo-studio.conv), written after the eleventh blind round's score and
the changes after it, before any tuning on it. Prices and galleries say
`readOnlyHint: true`; bookings, prints, moves and cancellations change state.
Deterministic: new sessions count from PS-500."""

import datetime
import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-studio")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

SessionType = Literal["portrait", "family", "headshot", "newborn"]
PRICES = {"portrait": 150.0, "family": 250.0, "headshot": 120.0, "newborn": 300.0}
SESSIONS = {f"PS-10{n}": {"session_type": "family", "date": f"2026-11-0{n}", "gallery": "editing",
                          "status": "booked"} for n in range(1, 10)}
SESSIONS["PS-101"]["gallery"] = "ready"
NEXT = itertools.count(500)
SessionId = Annotated[str, Field(pattern=r"^PS-[0-9]{3}$", description="Session, e.g. PS-101")]


def session(session_id: str) -> dict:
    if session_id not in SESSIONS:
        raise ToolError(f"session {session_id} not found")
    return SESSIONS[session_id]


def day(date: str) -> str:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date: {date} is not a date (YYYY-MM-DD)")
    return date


@server.tool(description="Book a photo session of a type on a day", annotations=WRITE)
def book_session(session_type: SessionType, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    session_id = f"PS-{next(NEXT)}"
    SESSIONS[session_id] = {"session_type": session_type, "date": day(date), "gallery": "", "status": "booked"}
    return {"session_id": session_id, "session_type": session_type, "date": date}


@server.tool(description="The price of a type of session", annotations=READ)
def session_price(session_type: SessionType) -> dict:
    return {"session_type": session_type, "price": PRICES[session_type]}


@server.tool(description="Whether a session's photos are ready to view", annotations=READ)
def gallery_status(session_id: SessionId) -> dict:
    return {"session_id": session_id, "gallery": session(session_id)["gallery"]}


@server.tool(description="Order prints of a session's photos", annotations=WRITE)
def order_prints(session_id: SessionId, prints: Annotated[int, Field(gt=0, le=500)]) -> dict:
    session(session_id)
    return {"session_id": session_id, "prints": prints, "price": 3.5 * prints}


@server.tool(description="Move a session to another day", annotations=WRITE)
def reschedule_session(session_id: SessionId, date: Annotated[str, Field(description="YYYY-MM-DD")]) -> dict:
    found = session(session_id)
    if found["status"] == "cancelled":
        raise ToolError(f"session {session_id} is cancelled")
    found["date"] = day(date)
    return {"session_id": session_id, "date": found["date"]}


@server.tool(description="Cancel a photo session",
             annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def cancel_session(session_id: SessionId) -> dict:
    found = session(session_id)
    if found["status"] == "cancelled":
        raise ToolError(f"session {session_id} is already cancelled")
    found["status"] = "cancelled"
    return {"session_id": session_id, "status": "cancelled"}


if __name__ == "__main__":
    run(server)
