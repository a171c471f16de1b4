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

It exits non-zero when a skill ends fewer than `--threshold` (0.9) of its
conversations correctly, when any conversation makes a wrong side-effecting
call, or when the invariant checker (adas_client.invariant_violations) finds a
broken promise in the event log of any job the run made.

The `.conv` format, one directive per line (`#` comments):

    skill: room-booking               header: the skill's slag
    server: rooms.py                  its MCP server in servers/ (skills/<slag>.yaml
                                      is registered with the server's address)
    side_effects: reserve_room, cancel_reservation
    tuned: no                         whether the detector was tuned on this skill
    === title                         a conversation (a new one: no memory)
    > text                            the user says it (a new turn of the conversation)
    < text                            the user answers the current ask (fields joined by ` | `)
    approve / reject                  an approver decides the held call
    takeover text                     an operator replies to an escalated job
    ? reason [field,...]              the job waits: ask, clarify, confirm, approval,
                                      recover, human, identity
    ! tool {json arguments}           this call was made (exactly these arguments)
    = status [outcome]                the job is completed/paused/cancelled/failed
    ~ text                            the reply (or the prompt, while waiting) contains text
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
from google.protobuf import struct_pb2  # noqa: E402

from adas.v1 import (  # noqa: E402
    dal_agent_service_pb2 as dal_pb2,
    dal_agent_service_pb2_grpc as dal_grpc,
    gate_pb2,
    gate_service_pb2,
    gate_service_pb2_grpc,
    job_pb2,
    orchestrator_service_pb2 as orch_pb2,
    orchestrator_service_pb2_grpc as orch_grpc,
    skill_registry_service_pb2 as registry_pb2,
    skill_registry_service_pb2_grpc as registry_grpc,
)
from google.protobuf import json_format  # noqa: E402

REASONS = {
    "ask": "MISSING_REQUIRED_INPUT",
    "clarify": "INTENT_CLARIFICATION_REQUIRED",
    "confirm": "ACTION_CONFIRMATION_REQUIRED",
    "approval": "APPROVAL_REQUIRED",
    "recover": "TOOL_ERROR_RECOVERY",
    "human": "HUMAN_TAKEOVER_REQUIRED",
    "identity": "IDENTITY_VERIFICATION_REQUIRED",
}
STATUSES = {
    "completed": job_pb2.JOB_STATUS_COMPLETED,
    "paused": job_pb2.JOB_STATUS_PAUSED,
    "cancelled": job_pb2.JOB_STATUS_CANCELLED,
    "failed": job_pb2.JOB_STATUS_FAILED,
}
SETTLED = set(STATUSES.values())
SETS = {"main": ["*.conv", "tuning/*.conv"], "blind": ["blind/*.conv"],
        "all": ["*.conv", "tuning/*.conv", "blind/*.conv"]}


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


class Conversation:
    def __init__(self, title):
        self.title = title
        self.steps = []


def parse(path):
    header, conversations = {}, []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("==="):
            conversations.append(Conversation(line[3:].strip()))
        elif not conversations and ":" in line:
            key, value = line.split(":", 1)
            header[key.strip()] = value.strip()
        elif conversations:
            conversations[-1].steps.append((number, line))
        else:
            raise ValueError(f"{path}:{number}: a step before the first ===")
    header["side_effects"] = {name.strip() for name in header.get("side_effects", "").split(",") if name.strip()}
    return header, conversations


class Failure(Exception):
    pass


class Runner:
    def __init__(self, address, skill, side_effects):
        channel = grpc.insecure_channel(address)
        self.orch = orch_grpc.OrchestratorServiceStub(channel)
        self.dal = dal_grpc.DalAgentServiceStub(channel)
        self.gate = gate_service_pb2_grpc.GateServiceStub(channel)
        self.skill = skill
        self.side_effects = side_effects

    def settle(self, name, after_version):
        deadline = time.time() + 30
        while time.time() < deadline:
            job = self.orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=10)
            if job.version > after_version and job.status in SETTLED:
                return job
            time.sleep(0.02)
        raise Failure(f"{name} did not settle: status {job.status}")

    def run(self, conversation):
        """Runs one conversation; returns its measures."""
        result = {"title": conversation.title, "turns": 0, "clarifications": 0, "wrong": [], "problems": []}
        job, conversation_name, expected_calls, seen_calls, seen_asks = None, "", [], 0, set()

        def note_calls():
            nonlocal seen_calls
            calls = list(job.tool_calls)
            made = calls[seen_calls:]
            seen_calls = len(calls)
            for call in made:
                arguments = json_format.MessageToDict(call.arguments)
                pending.append((call.tool, arguments))

        pending = []
        try:
            for number, line in conversation.steps:
                where = f"line {number}"
                if line.startswith("> "):
                    self.check_side_effects(pending, expected_calls, result)
                    pending, expected_calls, seen_calls = [], [], 0
                    result["turns"] += 1
                    started = self.orch.StartJob(orch_pb2.StartJobRequest(
                        skill=f"skills/{self.skill}", goal=line[2:], conversation=conversation_name), timeout=10)
                    conversation_name = started.conversation
                    job = self.settle(started.name, 0)
                    note_calls()
                elif line.startswith("< "):
                    result["turns"] += 1
                    if job is None or job.status != job_pb2.JOB_STATUS_PAUSED:
                        raise Failure(f"{where}: nothing to answer (status {job and job.status})")
                    values = [value.strip() for value in line[2:].split(" | ")]
                    fields = {field: struct_pb2.Value(string_value=value)
                              for field, value in zip(job.waiting.requested_fields, values)}
                    before = job.version
                    try:
                        self.dal.SubmitInput(dal_pb2.SubmitInputRequest(
                            job=job.name, correlation_id=job.waiting.correlation_id, fields=fields), timeout=10)
                        job = self.settle(job.name, before)
                    except grpc.RpcError as error:
                        if error.code() != grpc.StatusCode.INVALID_ARGUMENT:
                            raise
                        job = self.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
                    note_calls()
                elif line in ("approve", "reject"):
                    result["turns"] += 1
                    before = job.version
                    self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
                        job=job.name, correlation_id=job.waiting.correlation_id,
                        decision=gate_pb2.APPROVAL_DECISION_APPROVE if line == "approve" else gate_pb2.APPROVAL_DECISION_REJECT,
                        comment="harness"), timeout=10)
                    job = self.settle(job.name, before)
                    note_calls()
                elif line.startswith("takeover "):
                    before = job.version
                    self.dal.SubmitInput(dal_pb2.SubmitInputRequest(
                        job=job.name, correlation_id=job.waiting.correlation_id,
                        fields={"reply": struct_pb2.Value(string_value=line[len("takeover "):])}), timeout=10)
                    job = self.settle(job.name, before)
                elif line.startswith("? "):
                    words = line[2:].split()
                    reason = REASONS[words[0]]
                    fields = words[1].split(",") if len(words) > 1 else None
                    waiting = job.waiting if job.status == job_pb2.JOB_STATUS_PAUSED else None
                    if waiting is None or waiting.reason_code != reason:
                        raise Failure(f"{where}: expected a {reason} ask, got status {job.status} "
                                      f"{waiting.reason_code if waiting else ''} {job.error.message!r}")
                    if fields is not None and list(waiting.requested_fields) != fields:
                        raise Failure(f"{where}: asked for {list(waiting.requested_fields)}, expected {fields}")
                    if reason == REASONS["clarify"] and waiting.correlation_id not in seen_asks:
                        result["clarifications"] += 1
                    seen_asks.add(waiting.correlation_id)
                elif line.startswith("! "):
                    tool, _, arguments = line[2:].partition(" ")
                    arguments = json.loads(arguments) if arguments.strip() else {}
                    expected_calls.append((tool, arguments))
                    if not any(made == (tool, arguments) for made in pending):
                        raise Failure(f"{where}: expected {tool}{arguments}, made {pending}")
                elif line.startswith("= "):
                    words = line[2:].split()
                    if job.status != STATUSES[words[0]]:
                        raise Failure(f"{where}: expected {words[0]}, got status {job.status} "
                                      f"({job_pb2.OutcomeClass.Name(job.outcome_class)}) {job.error.message!r} "
                                      f"waiting {job.waiting.reason_code!r}")
                    if len(words) > 1 and job_pb2.OutcomeClass.Name(job.outcome_class) != "OUTCOME_CLASS_" + words[1].upper():
                        raise Failure(f"{where}: expected outcome {words[1]}, got {job_pb2.OutcomeClass.Name(job.outcome_class)}")
                elif line.startswith("~ "):
                    text = job.result.reply if job.status != job_pb2.JOB_STATUS_PAUSED else job.waiting.prompt_message
                    if line[2:].lower() not in text.lower():
                        raise Failure(f"{where}: {line[2:]!r} not in {text!r}")
                else:
                    raise Failure(f"{where}: unknown directive {line!r}")
            self.check_side_effects(pending, expected_calls, result)
        except Failure as failure:
            self.check_side_effects(pending, expected_calls, result)
            result["problems"].append(str(failure))
            if job is not None:
                result["job"] = json_format.MessageToDict(job)
        except grpc.RpcError as error:
            result["problems"].append(f"{error.code()}: {error.details()}")
        return result

    def check_side_effects(self, made, expected, result):
        """Each expected call may be made once: a second execution of the same
        side-effecting call is as wrong as a call nobody asked for."""
        unused = list(expected)
        for call in made:
            if call in unused:
                unused.remove(call)
            elif call[0] in self.side_effects:
                result["wrong"].append(call)


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
    parser.add_argument("--only", default="", help="run conversations whose title contains this")
    parser.add_argument("--json", help="write the measures as JSON here")
    parser.add_argument("--set", choices=sorted(SETS), default="main",
                        help="main (the scored sets), blind (blind/: run once, EVAL.md), all")
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
                     "--templates-dir", str(ROOT / "skill-templates"), "--mcp-allow", "127.0.0.1"],
                    env=env)
    servers = {}
    rows, results, violations = [], {}, []
    try:
        registry = registry_grpc.SkillRegistryServiceStub(grpc.insecure_channel(suite.address))
        paths = sorted(path for pattern in SETS[args.set] for path in HERE.glob(pattern))
        for path in paths:
            header, conversations = parse(path)
            slag = header["skill"]
            if header.get("server") and slag not in servers:
                servers[slag] = Process([python, str(HERE / "servers" / header["server"])], cwd=str(HERE / "servers"))
                source = (HERE / "skills" / f"{slag}.yaml").read_text().replace(
                    "${MCP_URL}", f"http://{servers[slag].address}/mcp")
                registry.PutSkill(registry_pb2.PutSkillRequest(name=f"skills/{slag}", source=source), timeout=30)
            runner = Runner(suite.address, header["skill"], header["side_effects"])
            measured = [runner.run(conversation) for conversation in conversations
                        if args.only.lower() in conversation.title.lower()]
            if not measured:
                continue
            results[header["skill"]] = measured
            correct = [m for m in measured if not m["problems"]]
            rows.append({
                "skill": header["skill"],
                "tuned": header.get("tuned", "no"),
                "count": len(measured),
                "correct": len(correct),
                "rate": len(correct) / len(measured),
                "turns": sum(m["turns"] for m in correct) / max(1, len(correct)),
                "clarifications": sum(m["clarifications"] for m in measured),
                "wrong": sum(len(m["wrong"]) for m in measured),
            })
            for m in measured:
                for problem in m["problems"]:
                    print(f"WRONG [{header['skill']}] {m['title']}: {problem}")
                for call in m["wrong"]:
                    print(f"SIDE EFFECT [{header['skill']}] {m['title']}: {call}")
        violations = adas_client.invariant_violations(event_logs(redis), [])
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


def event_logs(redis):
    """Every job's events (adas.storage.v1.JobEvent) from the run's store."""
    from adas.storage.v1 import job_record_pb2 as storage

    logs, cursor = {}, "0"
    while True:
        cursor, keys = redis.command("SCAN", cursor, "MATCH", "adas:*:log:*", "COUNT", "1000")
        for key in keys:
            logs[key] = [storage.JobEvent.FromString(data)
                         for data in redis.command("LRANGE", key, "0", "-1", raw=True)]
        if cursor == "0":
            return logs


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
