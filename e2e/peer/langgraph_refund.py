"""The bench's job as a LangGraph peer: the issue-17 comparison, same job, same machine.

Three tool nodes (check_order_status, process_refund, check_order_status) and one
`interrupt()` for the missing amount, resumed with `Command(resume=...)`, in one
Python process, with the in-memory checkpointer (MemorySaver) and the durable one
(SQLite). Tools are in-process functions shaped like the demo MCP server's replies:
the peer pays for no tool server, so the comparison flatters it. With
`--mcp-url`, a third run ("MemorySaver + MCP tools") makes the same three
calls on that MCP server (streamable HTTP, one kept connection), as a
LangGraph agent with MCP tools does: the suite's own work, tool I/O included.

    python -m venv ~/.cache/adas-peer-venv
    ~/.cache/adas-peer-venv/bin/pip install -r e2e/peer/requirements.txt
    ~/.cache/adas-peer-venv/bin/python e2e/peer/langgraph_refund.py [--jobs 2000] [--mcp-url URL]

Prints, per checkpointer: serial job p50/p99 (start -> pause -> answer -> done),
throughput (jobs/s, one process: the GIL makes it serial) and CPU per job.
`adas-bench --peer-python ~/.cache/adas-peer-venv/bin/python` runs it in the
bench's own run and prints the suite's ratios to it.
"""

import argparse
import http.client
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import urllib.parse
from typing import Optional, TypedDict

from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt


class Job(TypedDict, total=False):
    goal: str
    order_id: str
    amount: Optional[float]
    status: str
    refund: dict
    reply: str


def check_order_status(state: Job) -> Job:
    return {"status": "delivered"}


def process_refund(state: Job) -> Job:
    amount = state.get("amount")
    if amount is None:
        # The missing required input: the job pauses until the user answers.
        amount = float(interrupt({"field": "amount", "prompt": "How much should be refunded?"}))
    return {"amount": amount, "refund": {"order_id": state["order_id"], "amount": amount, "refunded": True}}


def check_again(state: Job) -> Job:
    return {"status": "refunded", "reply": f"Refunded {state['amount']} on {state['order_id']}."}


class McpTools:
    """The demo MCP server's tools over streamable HTTP (stateless, JSON
    answers), on one kept connection: what the suite's tool calls cost it."""

    def __init__(self, url: str):
        parsed = urllib.parse.urlsplit(url)
        self.path = parsed.path or "/"
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port or 80)
        self.next_id = 0

    def call(self, tool: str, arguments: dict) -> dict:
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                           "params": {"name": tool, "arguments": arguments}})
        self.connection.request("POST", self.path, body, {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
        })
        answer = json.loads(self.connection.getresponse().read())
        result = answer["result"]
        assert not result.get("isError"), answer
        return result["structuredContent"]


def with_mcp(tools: McpTools):
    """The three tool nodes, each making its call on the MCP server."""

    def check(state: Job) -> Job:
        return {"status": tools.call("check_order_status", {"order_id": state["order_id"]})["status"]}

    def refund(state: Job) -> Job:
        amount = state.get("amount")
        if amount is None:
            amount = float(interrupt({"field": "amount", "prompt": "How much should be refunded?"}))
        done = tools.call("process_refund", {"order_id": state["order_id"], "amount": amount})
        return {"amount": amount, "refund": done}

    def again(state: Job) -> Job:
        status = tools.call("check_order_status", {"order_id": state["order_id"]})["status"]
        return {"status": "refunded", "reply": f"Refunded {state['amount']} on {state['order_id']} ({status})."}

    return check, refund, again


def build(checkpointer, nodes=(check_order_status, process_refund, check_again)):
    graph = StateGraph(Job)
    graph.add_node("check_order_status", nodes[0])
    graph.add_node("process_refund", nodes[1])
    graph.add_node("check_again", nodes[2])
    graph.add_edge(START, "check_order_status")
    graph.add_edge("check_order_status", "process_refund")
    graph.add_edge("process_refund", "check_again")
    graph.add_edge("check_again", END)
    return graph.compile(checkpointer=checkpointer)


def one_job(app, thread: str) -> None:
    config = {"configurable": {"thread_id": thread}}
    paused = app.invoke({"goal": "I'd like a refund for order ORD-12345", "order_id": "ORD-12345"}, config)
    assert "__interrupt__" in paused, paused
    done = app.invoke(Command(resume="40"), config)
    assert done["status"] == "refunded", done


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, app, jobs: int) -> dict:
    for index in range(min(50, jobs)):
        one_job(app, f"warm-{index}")
    latencies = []
    cpu_before, started = cpu_seconds(), time.perf_counter()
    for index in range(jobs):
        begin = time.perf_counter()
        one_job(app, f"{name}-{index}")
        latencies.append(time.perf_counter() - begin)
    elapsed, cpu = time.perf_counter() - started, cpu_seconds() - cpu_before
    latencies.sort()
    return {
        "checkpointer": name,
        "jobs": jobs,
        "job p50 ms": round(statistics.median(latencies) * 1e3, 3),
        "job p99 ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1e3, 3),
        "jobs/s": round(jobs / elapsed, 1),
        "cpu/job ms": round(cpu / jobs * 1e3, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--mcp-url", help="also run the tool nodes as calls on this MCP server")
    args = parser.parse_args()
    results = [measure("MemorySaver", build(MemorySaver()), args.jobs)]
    if args.mcp_url:
        tools = with_mcp(McpTools(args.mcp_url))
        results.append(measure("MemorySaver + MCP tools", build(MemorySaver(), tools), args.jobs))
    try:
        import sqlite3

        from langgraph.checkpoint.sqlite import SqliteSaver

        with tempfile.TemporaryDirectory() as directory:
            connection = sqlite3.connect(os.path.join(directory, "peer.db"), check_same_thread=False)
            results.append(measure("SQLite (durable)", build(SqliteSaver(connection)), args.jobs))
    except ImportError:
        print("langgraph-checkpoint-sqlite is not installed: SQLite skipped", file=sys.stderr)
    for result in results:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
