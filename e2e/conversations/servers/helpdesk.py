"""An IT helpdesk: an MCP server for a sixth blind evaluation set
(blind/it-helpdesk.conv), written after the fifth blind score and before any
tuning after it. Lookups say `readOnlyHint: true`; resets, unlocks, tickets
and installs change state. Deterministic: tickets count from INC-9001."""

import itertools
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from serve import run

server = MCPServer("blind-helpdesk")
READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

USERS = {"ann.lee": {"locked": False}, "bob.ray": {"locked": True}, "cho.kim": {"locked": False},
         "dev.roy": {"locked": True}, "eve.tan": {"locked": True}, "fay.lin": {"locked": True},
         "gus.ong": {"locked": True}, "hal.web": {"locked": True}}
TICKETS = {
    "INC-8001": {"summary": "printer jam on floor 3", "status": "in progress"},
    "INC-8002": {"summary": "VPN drops every hour", "status": "resolved"},
    "INC-8003": {"summary": "monitor flickers", "status": "open"},
}
NEXT = itertools.count(9001)

Username = Annotated[str, Field(pattern=r"^[a-z]+\.[a-z]+$", description="Username, e.g. ann.lee")]


def user(username: str) -> dict:
    if username not in USERS:
        raise ToolError(f"user {username} not found")
    return USERS[username]


@server.tool(description="Send a password reset link to a user", annotations=WRITE)
def reset_password(username: Username) -> dict:
    user(username)
    return {"username": username, "status": "reset link sent"}


@server.tool(description="Unlock a locked account", annotations=WRITE)
def unlock_account(username: Username) -> dict:
    found = user(username)
    if not found["locked"]:
        raise ToolError(f"account {username} is not locked")
    found["locked"] = False
    return {"username": username, "status": "unlocked"}


@server.tool(description="Open a support ticket", annotations=WRITE)
def open_ticket(summary: Annotated[str, Field(min_length=3, description="What is wrong")]) -> dict:
    ticket = f"INC-{next(NEXT)}"
    TICKETS[ticket] = {"summary": summary, "status": "open"}
    return {"ticket_id": ticket, "summary": summary, "status": "open"}


@server.tool(description="Status of a support ticket", annotations=READ)
def ticket_status(ticket_id: Annotated[str, Field(pattern=r"^INC-[0-9]{4}$", description="Ticket, e.g. INC-8001")]) -> dict:
    if ticket_id not in TICKETS:
        raise ToolError(f"ticket {ticket_id} not found")
    return {"ticket_id": ticket_id, **TICKETS[ticket_id]}


@server.tool(description="Install software on a user's laptop", annotations=WRITE)
def install_software(username: Username, software: Literal["slack", "zoom", "photoshop", "docker"]) -> dict:
    user(username)
    return {"username": username, "software": software, "status": "scheduled"}


if __name__ == "__main__":
    run(server)
