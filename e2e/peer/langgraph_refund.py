"""The bench's job as a LangGraph peer: the issue-17 comparison, same job, same machine.

Three tool nodes (check_order_status, process_refund, check_order_status) and one
`interrupt()` for the missing amount, resumed with `Command(resume=...)`, in one
Python process, with the in-memory checkpointer (MemorySaver) and the durable one
(SQLite). Tools are in-process functions shaped like the demo MCP server's replies:
the peer pays for no tool server, so the comparison flatters it.

    python -m venv ~/.cache/adas-peer-venv
    ~/.cache/adas-peer-venv/bin/pip install -r e2e/peer/requirements.txt
    ~/.cache/adas-peer-venv/bin/python e2e/peer/langgraph_refund.py [--jobs 2000]

Prints, per checkpointer: serial job p50/p99 (start -> pause -> answer -> done),
throughput (jobs/s, one process: the GIL makes it serial) and CPU per job.
`adas-bench --peer-python ~/.cache/adas-peer-venv/bin/python` runs it in the
bench's own run and prints the suite's ratios to it.
"""

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
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


def build(checkpointer):
    graph = StateGraph(Job)
    graph.add_node("check_order_status", check_order_status)
    graph.add_node("process_refund", process_refund)
    graph.add_node("check_again", check_again)
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
    args = parser.parse_args()
    results = [measure("MemorySaver", build(MemorySaver()), args.jobs)]
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
