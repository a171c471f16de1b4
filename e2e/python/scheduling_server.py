"""The scheduling solution's two MCP servers, written for the tests with the
official Python SDK: `identity` (user lookup by email) and `calendar`
(availability, events). Their tool names are the servers' own (`user.lookup`,
`event.create`); the skills call them through connectors under theirs
(`identity.user.lookup`, `calendar.event.create`).

`python scheduling_server.py identity|calendar` serves on a free loopback
port and prints `listening on 127.0.0.1:PORT`. Every call the calendar
executes is appended to `$SCHED_EXECUTIONS_LOG` as one JSON line
`{"tool", "arguments"}`: the tests read what really happened there."""

import asyncio
import json
import os
import socket
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

READ = ToolAnnotations(readOnlyHint=True)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False)

USERS = {
    "alice@company.com": {"user_id": "u-alice", "user_type": "team_member", "status": "active",
                          "name": "Alice", "email": "alice@company.com",
                          "customer": {"ssn": "078-05-1120", "email": "alice@company.com"}},
    "bob@gmail.com": {"user_id": "u-bob", "user_type": "customer", "status": "active",
                      "name": "Bob", "email": "bob@gmail.com",
                      "customer": {"ssn": "219-09-9999", "email": "bob@gmail.com"}},
    "carol@company.com": {"user_id": "u-carol", "user_type": "team_member", "status": "suspended",
                          "name": "Carol", "email": "carol@company.com",
                          "customer": {"ssn": "457-55-5462", "email": "carol@company.com"}},
}


def record(tool: str, arguments: dict) -> None:
    path = os.environ.get("SCHED_EXECUTIONS_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"tool": tool, "arguments": arguments}) + "\n")


def identity() -> MCPServer:
    server = MCPServer("sched-identity")

    @server.tool(name="user.lookup", description="Look up a user by email address", annotations=READ)
    def user_lookup(email: str) -> dict:
        record("user.lookup", {"email": email})
        user = USERS.get(email.strip().lower())
        if user is None:
            raise ToolError(f"no user with email {email}")
        return user

    return server


def calendar() -> MCPServer:
    server = MCPServer("sched-calendar")

    @server.tool(name="availability.check", description="Check available time slots", annotations=READ)
    def availability_check(date_start: str, date_end: str = "", participant_email: str = "") -> dict:
        record("availability.check", {"date_start": date_start})
        return {"slots": [f"{date_start}T10:00", f"{date_start}T14:00"]}

    @server.tool(name="event.list", description="List calendar events", annotations=READ)
    def event_list(date_start: str, date_end: str = "", query: str = "", organizer_id: str = "") -> dict:
        record("event.list", {"date_start": date_start, "organizer_id": organizer_id})
        # Two meetings on any day asked about: the people name them by their words.
        day = date_start[:10]
        return {"events": [
            {"event_id": "EV-21", "title": "1:1 with Dave", "start_time": f"{day}T14:00",
             "end_time": f"{day}T14:30", "attendees": ["dave@company.com"]},
            {"event_id": "EV-22", "title": "Design review", "start_time": f"{day}T16:00",
             "end_time": f"{day}T17:00", "attendees": ["erin@company.com"]},
        ]}

    @server.tool(name="event.create", description="Create a calendar event", annotations=WRITE)
    def event_create(title: str, start_time: str, end_time: str, organizer_id: str,
                     attendees: list[str] | None = None, description: str = "") -> dict:
        arguments = {"title": title, "start_time": start_time, "end_time": end_time,
                     "organizer_id": organizer_id}
        record("event.create", arguments)
        return {"event_id": "EV-1", "status": "booked", **arguments}

    @server.tool(name="event.update", description="Update a calendar event", annotations=WRITE)
    def event_update(event_id: str, organizer_id: str, title: str = "", start_time: str = "",
                     end_time: str = "") -> dict:
        record("event.update", {"event_id": event_id, "organizer_id": organizer_id,
                                "start_time": start_time, "end_time": end_time})
        return {"event_id": event_id, "status": "updated"}

    @server.tool(name="event.delete", description="Delete a calendar event",
                 annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
    def event_delete(event_id: str, organizer_id: str, notify_attendees: bool = False) -> dict:
        record("event.delete", {"event_id": event_id, "organizer_id": organizer_id})
        return {"event_id": event_id, "status": "cancelled"}

    return server


async def main(server: MCPServer) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    host, port = sock.getsockname()[:2]
    app = server.streamable_http_app(streamable_http_path="/mcp")
    config = uvicorn.Config(app, log_level="warning")
    print(f"listening on {host}:{port}", flush=True)
    await uvicorn.Server(config).serve(sockets=[sock])


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    servers = {"identity": identity, "calendar": calendar}
    if which not in servers:
        sys.exit("usage: scheduling_server.py identity|calendar")
    try:
        asyncio.run(main(servers[which]()))
    except KeyboardInterrupt:
        sys.exit(0)
