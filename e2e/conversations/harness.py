"""The conversation evaluation harness: scripted conversations (`*.conv`) driven
through the real suite (`adas up`, in-memory, dev mode) over gRPC, with the
templates' demo MCP server and the harness's own MCP servers (`servers/`) for
skills written for it (`skills/`, never used to tune the detector).

Each conversation says what the user types, what the job must ask, which
tool calls it must make (exact arguments) and how it must end. The harness
reports, per skill: correct final states, turns to completion, clarifications,
and wrong side-effecting calls — a call of a tool the file lists under
`side_effects:` that the conversation did not expect. That count must be 0.

    python harness.py                 # run all, print the table
    python harness.py --report EVAL.md  # and write the report
    python harness.py --only rooms    # conversations whose title contains it
    python harness.py --model scripted  # the model path, against scripted_model.py
    python harness.py --model env       # against the model ADAS_LLM_* names (e2e/eval.sh)
    python harness.py --set blind       # the blind sets (blind/): scored once, see EVAL.md
    python harness.py --set scored      # blind sets already scored (scored/): seen since

It exits non-zero when a skill ends fewer than `--threshold` (0.9) of its
conversations correctly, when any conversation makes a wrong side-effecting
call, or when the invariant checker (adas_client.invariant_violations) finds a
broken promise in the event log of any job the run made.

Each file runs through `adas skill test SLAG FILE.conv --json OUT`, the
product's own conversation runner (its module docs give the `.conv` format:
cli/adas/src/conversations.rs); this harness starts the suite and the MCP
servers, registers the skills, tabulates the measures and checks the
invariants.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "e2e" / "python"))

import adas_client  # noqa: E402

adas_client.generate_client()

import grpc  # noqa: E402

from adas.v1 import (  # noqa: E402
    skill_registry_service_pb2 as registry_pb2,
    skill_registry_service_pb2_grpc as registry_grpc,
)

# A blind set runs only when named: `all` is everything seen.
SETS = {"main": ["*.conv", "tuning/*.conv"], "blind": ["blind/*.conv"], "scored": ["scored/*.conv"],
        "all": ["*.conv", "tuning/*.conv", "scored/*.conv"]}


class Process:
    """A child process that prints `listening on HOST:PORT` once it serves."""

    def __init__(self, command, env=None, cwd=None):
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})}, cwd=cwd)
        found = {}

        def read():
            for line in self.process.stdout:
                if line.startswith("listening on "):
                    found["address"] = line[len("listening on "):].strip()
                    break
            for _ in self.process.stdout:
                pass

        threading.Thread(target=read, daemon=True).start()
        deadline = time.time() + 30
        while "address" not in found and time.time() < deadline and self.process.poll() is None:
            time.sleep(0.02)
        if "address" not in found:
            self.process.kill()
            raise RuntimeError(f"{command[0]} did not start")
        self.address = found["address"]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def header(path):
    """The header lines of a `.conv` file (before its first `===`)."""
    found = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("==="):
            break
        if line and not line.startswith("#") and ":" in line:
            key, value = line.split(":", 1)
            found[key.strip()] = value.strip()
    return found


def run_file(bin_dir, address, slag, path):
    """The file's conversations through `adas skill test`: their measures."""
    out = pathlib.Path(tempfile.mkdtemp(prefix="adas-conv-")) / "measures.json"
    run = subprocess.run([str(pathlib.Path(bin_dir) / "adas"), "skill", "test", slag, str(path),
                          "--server", f"http://{address}", "--json", str(out), "--min-correct", "0"],
                         capture_output=True, text=True, timeout=900)
    if not out.exists():
        raise RuntimeError(f"adas skill test {slag} {path} failed ({run.returncode}): {run.stderr}")
    return json.loads(out.read_text())


def table(rows):
    lines = [
        "| skill | tuned on | conversations | correct final state | mean turns | clarifications | wrong side-effecting calls |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(f"| {row['skill']} | {row['tuned']} | {row['count']} | {row['correct']} ({row['rate']:.0%}) | "
                     f"{row['turns']:.1f} | {row['clarifications']} | {row['wrong']} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", default=os.environ.get("ADAS_BIN_DIR", str(ROOT / "target" / "debug")))
    parser.add_argument("--report", help="write the report (markdown) here")
    parser.add_argument("--skills", default="", help="only these files of the set (comma-separated names, no .conv): one round")
    parser.add_argument("--only", default="", help="run conversations whose title contains this")
    parser.add_argument("--json", help="write the measures as JSON here")
    parser.add_argument("--set", choices=sorted(SETS), default="main",
                        help="main (main and tuning sets), blind (blind/: run once, EVAL.md), "
                             "scored (blind sets once scored, seen since), all (all but blind)")
    # Conversations write relative dates ("tomorrow") as the day they mean
    # from here: the suite reads them as if today were this day.
    parser.add_argument("--today", default="2026-12-01", help="the day relative dates count from (YYYY-MM-DD)")
    parser.add_argument("--threshold", type=float, default=0.9,
                        help="the share of conversations every skill must end correctly")
    parser.add_argument("--model", choices=["none", "scripted", "env"], default="none",
                        help="the model path: none (deterministic), scripted (scripted_model.py, an "
                             "overconfident model that invents values), env (ADAS_LLM_* as set)")
    args = parser.parse_args()

    python = sys.executable
    memory = tempfile.mkdtemp(prefix="adas-eval-")
    env = {"ADAS_LOG": "error", "ADAS_WORKERS": "2"}
    model = None
    if args.model == "scripted":
        model = Process([python, str(HERE / "scripted_model.py")])
        env.update({"ADAS_LLM_BASE_URL": f"http://{model.address}/v1", "ADAS_LLM_MODEL": "scripted"})
    elif args.model == "none":
        # The deterministic path: no model the caller's environment names.
        for key in [key for key in os.environ if key.startswith("ADAS_LLM_")]:
            del os.environ[key]
    # A private redis-server holds the jobs, so the invariant checker can read
    # every job's event log after the run.
    redis = adas_client.Redis()
    env["ADAS_REDIS_URL"] = redis.url
    suite = Process([str(pathlib.Path(args.bin_dir) / "adas"), "up", "--listen", "127.0.0.1:0",
                     "--demo-mcp-listen", "127.0.0.1:0", "--memory-root", memory,
                     "--templates-dir", str(ROOT / "skill-templates"), "--mcp-allow", "127.0.0.1",
                     "--today", args.today],
                    env=env)
    servers = {}
    rows, results, violations = [], {}, []
    try:
        registry = registry_grpc.SkillRegistryServiceStub(grpc.insecure_channel(suite.address))
        paths = sorted(path for pattern in SETS[args.set] for path in HERE.glob(pattern))
        if args.skills:
            # One round of a set: its files by name (`stock-desk.conv`).
            wanted = set(args.skills.split(","))
            paths = [path for path in paths if path.stem in wanted]
        for path in paths:
            found = header(path)
            slag = found["skill"]
            if found.get("server") and slag not in servers:
                servers[slag] = Process([python, str(HERE / "servers" / found["server"])], cwd=str(HERE / "servers"))
                source = (HERE / "skills" / f"{slag}.yaml").read_text().replace(
                    "${MCP_URL}", f"http://{servers[slag].address}/mcp")
                registry.PutSkill(registry_pb2.PutSkillRequest(name=f"skills/{slag}", source=source), timeout=30)
            measured = [m for m in run_file(args.bin_dir, suite.address, slag, path)
                        if args.only.lower() in m["title"].lower()]
            if not measured:
                continue
            results[slag] = measured
            correct = [m for m in measured if not m["problems"]]
            rows.append({
                "skill": slag,
                "tuned": found.get("tuned", "no"),
                "count": len(measured),
                "correct": len(correct),
                "rate": len(correct) / len(measured),
                "turns": sum(m["turns"] for m in correct) / max(1, len(correct)),
                "clarifications": sum(m["clarifications"] for m in measured),
                "wrong": sum(len(m["wrong"]) for m in measured),
            })
            for m in measured:
                for problem in m["problems"]:
                    print(f"WRONG [{slag}] {m['title']}: {problem}")
                for call in m["wrong"]:
                    print(f"SIDE EFFECT [{slag}] {m['title']}: {call}")
        violations = adas_client.invariant_violations(adas_client.event_logs([redis]), [])
    finally:
        for server in servers.values():
            server.stop()
        suite.stop()
        redis.stop()
        if model:
            model.stop()
    print(table(rows))
    if os.environ.get("HARNESS_DEBUG"):  # the failing jobs, whole
        print(json.dumps(results, indent=1))
    total = sum(row["count"] for row in rows)
    print(f"conversations: {total}; wrong side-effecting calls: {sum(row['wrong'] for row in rows)}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"rows": rows, "results": results}, indent=1))
    if args.report:
        write_report(pathlib.Path(args.report), rows, total)
    failures = [f"{row['skill']}: {row['correct']}/{row['count']} correct, below {args.threshold:.0%}"
                for row in rows if row["rate"] < args.threshold and args.model == "none"]
    failures += [f"{row['skill']}: {row['wrong']} wrong side-effecting calls" for row in rows if row["wrong"]]
    failures += [f"invariant: {problem}" for problem in violations]
    for failure in failures:
        print(f"FAIL {failure}")
    return 1 if failures or not rows else 0


def write_report(path, rows, total):
    text = path.read_text() if path.exists() else ""
    begin, end = "<!-- harness:begin -->", "<!-- harness:end -->"
    block = f"{begin}\n{table(rows)}\n\n{total} conversations.\n{end}"
    if begin in text and end in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text += "\n" + block + "\n"
    path.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
