"""Serves an MCP server of the conversation harness over streamable HTTP on a
free loopback port and prints `listening on 127.0.0.1:PORT` once it accepts."""

import asyncio
import socket
import sys

import uvicorn


def run(server) -> None:
    async def main() -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        host, port = sock.getsockname()[:2]
        app = server.streamable_http_app(streamable_http_path="/mcp")
        config = uvicorn.Config(app, log_level="warning")
        print(f"listening on {host}:{port}", flush=True)
        await uvicorn.Server(config).serve(sockets=[sock])

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
