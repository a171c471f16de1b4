"""Helpers for the Python end-to-end tests: generate the adas.v1 client from
proto/ with grpcio-tools, and run suite binaries on 127.0.0.1:0."""

import hashlib
import hmac
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import socket
import threading
import time
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
# The stored form of a job: a private module beside its codegen, not the public contract.
STORAGE_ROOT = ROOT / "shared" / "proto" / "storage"
READY_TIMEOUT_S = 30


def generate_client() -> pathlib.Path:
    """Generates Python modules for every adas.v1 proto (and adas.storage.v1, the
    stored form of a job) into a temp dir on sys.path."""
    import grpc_tools
    from grpc_tools import protoc

    out = pathlib.Path(tempfile.mkdtemp(prefix="adas-pyclient-"))
    protos = sorted(str(path.relative_to(root)) for root in (PROTO_ROOT, STORAGE_ROOT)
                    for path in (root / "adas").glob("**/*.proto"))
    well_known = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{STORAGE_ROOT}",
        f"-I{well_known}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        *protos,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed for {protos}")
    sys.path.insert(0, str(out))
    return out


def binary(name: str) -> pathlib.Path:
    bin_dir = pathlib.Path(os.environ.get("ADAS_BIN_DIR", ROOT / "target" / "debug"))
    path = bin_dir / name
    if not path.exists():
        raise RuntimeError(f"{path} is not built: run `cargo build --workspace --bins` (the test command does)")
    return path


class Service:
    """A suite binary on a free loopback port; stop() sends SIGTERM, kill() SIGKILL."""

    def __init__(self, name: str, *args: str, env: dict | None = None, suite_flags: bool = True):
        # An empty memory root of its own, inside a scratch dir (so tests can check
        # that nothing escapes it), unless the environment names one.
        self.memory_root = (env or {}).get("ADAS_MEMORY_ROOT") or os.path.join(tempfile.mkdtemp(prefix=f"adas-{name}-"), "memory")
        os.makedirs(self.memory_root, exist_ok=True)
        flags = ["--memory-root", self.memory_root, "--templates-dir", str(ROOT / "skill-templates")] if suite_flags else []
        self.command = [str(binary(name)), *args, "--listen", "127.0.0.1:0", *flags]
        self.env = {**os.environ, "ADAS_LOG_FORMAT": "json", "ADAS_LOG": "warn",
                    "ADAS_AUDIT_SECRET": "env:ADAS_E2E_AUDIT_SECRET",
                    "ADAS_E2E_AUDIT_SECRET": AUDIT_SECRET, **(env or {})}
        self._start()

    def _start(self):
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, env=self.env)
        self.address = self._wait_ready()

    def _wait_ready(self) -> str:
        found = {}

        def read():
            for line in self.process.stdout:
                if line.startswith("listening on "):
                    found["address"] = line[len("listening on "):].strip()
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(READY_TIMEOUT_S)
        if "address" not in found:
            self.process.kill()
            raise RuntimeError(f"{self.process.args[0]} did not become ready")
        return found["address"]

    def stop(self) -> int:
        self.process.terminate()
        code = self.process.wait(timeout=30)
        self.process.stdout.close()
        return code

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        self.process.stdout.close()

    def restart(self, same_address: bool = False) -> None:
        """Starts the same command again: on a new port, or where it listened
        (as a restarted pod behind its Service address)."""
        if same_address:
            at = self.command.index("--listen") + 1
            self.command[at] = self.address
        self._start()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Redis:
    """A private redis-server on a free port (never the machine's 6379)."""

    def __init__(self, durable: bool = False, cluster: bool = False):
        self.port = free_port()
        # A cluster node's bus port (+10000) must be free too.
        while cluster and (self.port >= 55000 or not _port_free(self.port + 10000)):
            self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="adas-redis-")
        # Durable as deploy/ runs it: every write fsynced to the AOF before it
        # is acknowledged, so a restart loses nothing.
        self.persistence = (["--appendonly", "yes", "--appendfsync", "always"] if durable
                            else ["--appendonly", "no"])
        if cluster:
            self.persistence += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                                 "--cluster-node-timeout", "5000"]
        self._start()

    def _start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *self.persistence,
             "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + READY_TIMEOUT_S
        while time.time() < deadline:
            try:
                if self.command("PING") == "PONG":
                    return
            except OSError:
                time.sleep(0.02)
            except RuntimeError as error:
                # A restart replays its AOF first: "LOADING …" until it is done.
                if not str(error).startswith("LOADING"):
                    raise
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/"

    def command(self, *words: str, raw: bool = False):
        """One command over RESP; returns str (bytes when `raw`), int, list or None."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            payload = f"*{len(words)}\r\n" + "".join(f"${len(w.encode())}\r\n{w}\r\n" for w in words)
            sock.sendall(payload.encode())
            reader = sock.makefile("rb")
            return _read_resp(reader, raw)

    def stop(self):
        self.process.kill()
        self.process.wait(timeout=10)

    def restart(self):
        """kill -9, then the same server again on the same port and data."""
        self.stop()
        self._start()


class RedisCluster:
    """A private three-primary Redis Cluster (redis-cli --cluster create), every
    slot assigned; `command` follows MOVED redirections as a cluster client does."""

    def __init__(self, durable: bool = False):
        self.nodes = [Redis(durable=durable, cluster=True) for _ in range(3)]
        subprocess.run(["redis-cli", "--cluster", "create", *[f"127.0.0.1:{node.port}" for node in self.nodes],
                        "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.time() + READY_TIMEOUT_S
        for node in self.nodes:
            while "cluster_state:ok" not in node.command("CLUSTER", "INFO"):
                if time.time() > deadline:
                    raise RuntimeError("the cluster did not reach cluster_state:ok")
                time.sleep(0.02)

    @property
    def url(self) -> str:
        """The seed nodes, comma-separated, as --redis-url takes them."""
        return ",".join(node.url for node in self.nodes)

    def command(self, *words: str, raw: bool = False):
        node = self.nodes[0]
        for _ in range(3):
            try:
                return node.command(*words, raw=raw)
            except RuntimeError as error:
                moved = str(error).split()
                if moved[:1] != ["MOVED"]:
                    raise
                port = int(moved[2].rsplit(":", 1)[1])
                node = next(n for n in self.nodes if n.port == port)
        raise RuntimeError(f"{words[0]} kept moving")

    def stop(self):
        for node in self.nodes:
            node.stop()

    def restart(self):
        """kill -9 of one node (each in turn), then the same node again on its
        port, data and nodes.conf: its slots are down meanwhile."""
        self._turn = getattr(self, "_turn", -1) + 1
        node = self.nodes[self._turn % len(self.nodes)]
        node.restart()
        deadline = time.time() + READY_TIMEOUT_S
        while "cluster_state:ok" not in node.command("CLUSTER", "INFO"):
            if time.time() > deadline:
                raise RuntimeError("the node did not rejoin the cluster")
            time.sleep(0.02)


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


# The Redis key layout (shared/state/src/keys.rs): a slag's keys and its
# partition's queue lanes share the hash tag {<tenant>:q<NN>}.
PARTITIONS = 16


def partition_of(slag: str) -> int:
    """FNV-1a of the slag, modulo the partitions (as keys.rs computes it)."""
    value = 0x811C9DC5
    for byte in slag.encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value % PARTITIONS


def slag_key(slag: str, suffix: str, tenant: str = "default") -> str:
    return f"adas:{{{tenant}:q{partition_of(slag):02}}}:{slag}:{suffix}"


def stored_record(redis, slag: str, job_id: str) -> bytes:
    """A job's record as Redis holds it: the job's key is a string, a header
    line (version, status, created ms, waiting) and then the protobuf record —
    or, for a parked job (waiting `p`), its record and events packed."""
    raw = redis.command("GET", slag_key(slag, f"job:{job_id}"), raw=True)
    header, _, record = raw.partition(b"\n")
    words = header.split(b" ")
    assert words[0].isdigit(), f"a job key starts with its header line: {raw[:40]!r}"
    if words[3] == b"p":
        return unpack_parked(record)[0]
    return record


# The preset dictionaries of parked jobs, by format byte (shared/state/src/park.rs).
PARK_DICTIONARIES = {
    1: (ROOT / "shared/state/src/park-dictionary-1.txt").read_bytes(),
    2: (ROOT / "shared/state/src/park-dictionary-2.bin").read_bytes(),
}


def unpack_parked(packed: bytes) -> tuple:
    """A parked job's (record, events): its format byte, then raw deflate
    against that format's dictionary of the event count, each event's varint
    length and bytes, then the record."""
    assert packed[0] in PARK_DICTIONARIES, f"unknown parked format {packed[0]}"
    inflate = zlib.decompressobj(-15, zdict=PARK_DICTIONARIES[packed[0]])
    plain = inflate.decompress(packed[1:]) + inflate.flush()
    at = 0

    def varint():
        nonlocal at
        value, shift = 0, 0
        while True:
            byte = plain[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    events = []
    for _ in range(varint()):
        size = varint()
        events.append(plain[at:at + size])
        at += size
    return plain[at:], events


def queue_key(slag: str, lane: str = "ready", tenant: str = "default") -> str:
    """The ready (or resumed) queue lane of the slag's partition."""
    return f"adas:{{{tenant}:q{partition_of(slag):02}}}:queue:{lane}"


def _read_resp(reader, raw=False):
    line = reader.readline().decode().rstrip("\r\n")
    kind, rest = line[0], line[1:]
    if kind == "+":
        return rest
    if kind == "-":
        raise RuntimeError(rest)
    if kind == ":":
        return int(rest)
    if kind == "$":
        size = int(rest)
        if size < 0:
            return None
        data = reader.read(size + 2)[:-2]
        return data if raw else data.decode()
    if kind == "*":
        count = int(rest)
        return None if count < 0 else [_read_resp(reader, raw) for _ in range(count)]
    raise RuntimeError(f"unexpected reply {line!r}")


# The demo tools that change something (the others are read-only: running one
# again is harmless).
SIDE_EFFECTING_DEMO_TOOLS = {"process_refund", "delete_customer_record", "restart_service"}

# What the shipped templates' policies demand, stated here independently of the
# gate: (tool, condition on its arguments) -> the role that must approve it.
REQUIRED_APPROVALS = [
    ("process_refund", lambda args: float(args.get("amount", 0)) > 500, "supervisor"),
    ("restart_service", lambda args: args.get("environment") == "production", "on-call"),
]


def call_digest(tool: str, arguments: dict) -> str:
    """The gate's digest of a call (shared/policy/src/gate.rs `call_digest`):
    SHA-256 of the tool, a NUL and the arguments as canonical JSON."""
    canonical = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(tool.encode() + b"\0" + canonical.encode()).hexdigest()


# The grants the scheduling export's access rules require of a tool, and the
# argument one of them injects (stated here, not read from the skill).
REQUIRED_GRANTS = {
    "calendar.availability.check": (("sched.user_id",), None),
    "calendar.event.list": (("sched.user_id",), None),
    "calendar.event.create": (("sched.user_id",), "organizer_id"),
    "calendar.event.update": (("sched.user_id",), "organizer_id"),
    "calendar.event.delete": (("sched.user_id",), "organizer_id"),
}


# The audit secret every suite these tests start is given (`--audit-secret`):
# grant digests are HMAC-SHA256 under it.
AUDIT_SECRET = "e2e-audit-secret-not-for-production"


def grant_digest(value) -> str:
    """HMAC-SHA256 of a grant value's JSON text, as serde_json writes it."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    return hmac.new(AUDIT_SECRET.encode(), text, hashlib.sha256).hexdigest()


def invariant_violations(event_logs: dict, executions: list, complete_logs: bool = True) -> list:
    """What ADAS promises, proved from every job's event log and the tool
    server's own record of what it executed (e2e/CHAOS.md):
    1. every executed call has a `tool_started` event with its idempotency key,
       tool and exact arguments, carrying a gate ALLOW whose digest is that of
       those arguments (unless `complete_logs` is false: a retention policy
       deleted finished jobs' logs);
    2. a call the policy puts behind approval was allowed by an approval of that
       exact call (its digest), decided by someone holding the required role;
    3. no side-effecting call is executed twice (one key, one execution);
    4. no job is both paused and running: between `paused` and `resumed` no
       worker step is recorded;
    5. a call of a tool the scheduling export guards relies on the grants its
       rules require, each issued (`grant_issued`) by the job it names with
       the value digest it names;
    6. an injected argument (`organizer_id`) is its grant's value."""
    from adas.storage.v1 import job_record_pb2 as storage

    kinds = storage.EventKind
    worker_steps = {kinds.EVENT_KIND_RUNNING, kinds.EVENT_KIND_RECLAIMED, kinds.EVENT_KIND_PLANNED,
                    kinds.EVENT_KIND_RESOLVED, kinds.EVENT_KIND_TOOL_STARTED, kinds.EVENT_KIND_TOOL_FINISHED,
                    kinds.EVENT_KIND_TOOL_DENIED, kinds.EVENT_KIND_FINALIZED}
    problems, started, issued = [], {}, {}
    for job, events in event_logs.items():
        for event in events:
            if event.kind == kinds.EVENT_KIND_GRANT_ISSUED:
                data = json.loads(event.data_json)
                issued[(job.rsplit(":", 1)[-1], data.get("key"))] = data.get("value_sha256")
    for job, events in event_logs.items():
        paused, approvals = False, {}
        for event in events:
            data = json.loads(event.data_json) if event.data_json else None
            name = kinds.Name(event.kind)
            if event.kind == kinds.EVENT_KIND_PAUSED:
                paused = True
            elif event.kind == kinds.EVENT_KIND_RESUMED:
                paused = False
                if isinstance(data, dict) and data.get("call_digest"):
                    approvals[data["call_digest"]] = (data.get("approver", ""), data.get("role", ""))
            elif event.kind in worker_steps and paused:
                problems.append(f"{job}: {name} while paused")
            if event.kind != kinds.EVENT_KIND_TOOL_STARTED:
                continue
            tool, arguments, key = data["tool"], data["arguments"], data.get("idempotency_key", "")
            gate = data.get("gate") or {}
            digest = call_digest(tool, arguments)
            if gate.get("verdict") != "allow":
                problems.append(f"{job}: {tool} started without a gate ALLOW")
            elif gate.get("call_digest") != digest:
                problems.append(f"{job}: {tool} started with arguments other than the gate allowed")
            keys, injected = REQUIRED_GRANTS.get(tool, ((), None))
            for grant_key in keys:
                relied = (data.get("grants") or {}).get(grant_key) or {}
                value_digest = relied.get("value_sha256")
                if not value_digest or issued.get((relied.get("issuer_job"), grant_key)) != value_digest:
                    problems.append(f"{job}: {tool} started without the grant {grant_key} issued to it")
                if injected and (injected not in arguments or grant_digest(arguments[injected]) != value_digest):
                    problems.append(f"{job}: {tool}'s {injected} is not the value of its grant {grant_key}")
            for rule_tool, applies, role in REQUIRED_APPROVALS:
                if rule_tool == tool and applies(arguments):
                    who, granted_role = approvals.get(digest, ("", ""))
                    if gate.get("rule_kind") != "GATE_RULE_KIND_APPROVAL_GRANTED" or not who or granted_role != role:
                        problems.append(f"{job}: {tool} {arguments} ran without the approval of a {role}")
            if key in started and started[key] != (tool, arguments):
                problems.append(f"{job}: idempotency key {key} names two different calls")
            started[key] = (tool, arguments)
    seen = set()
    for execution in executions:
        tool, key, arguments = execution["tool"], execution["key"], execution.get("arguments") or {}
        if tool in SIDE_EFFECTING_DEMO_TOOLS:
            if not key:
                problems.append(f"{tool} executed without an idempotency key")
            elif key in seen:
                problems.append(f"{tool} executed twice under key {key}")
        seen.add(key)
        if key and complete_logs and started.get(key) != (tool, arguments):
            problems.append(f"{tool} {arguments} executed under key {key} without a matching tool_started "
                            f"(recorded: {started.get(key)})")
    return problems


def event_logs(nodes: list) -> dict:
    """Every job's events (adas.storage.v1.JobEvent) on these Redis nodes, by key."""
    from adas.storage.v1 import job_record_pb2 as storage

    logs = {}
    for node in nodes:
        cursor = "0"
        while True:
            cursor, keys = node.command("SCAN", cursor, "MATCH", "adas:*:log:*", "COUNT", "1000")
            for key in keys:
                entries = node.command("LRANGE", key, "0", "-1", raw=True)
                logs[key] = [storage.JobEvent.FromString(data) for data in entries]
            if cursor == "0":
                break
    return logs


class Suite:
    """The five services as separate processes on a private redis-server, with
    the demo MCP server — each with a memory root of its own, as every pod of
    the Helm chart (deploy/helm/adas) has: what they share is the store."""

    def __init__(self, demo_delay_ms: int = 0, visibility_ms: int = 60000, step_engine: str = "local",
                 durable_redis: bool = False, cluster: bool = False, replicas: int = 1, env: dict | None = None):
        self.redis = RedisCluster(durable=durable_redis) if cluster else Redis(durable=durable_redis)
        # The demo server logs every call it executes with its idempotency key.
        self.executions_log = os.path.join(tempfile.mkdtemp(prefix="adas-executions-"), "executions.jsonl")
        self.demo = Service("adas-demo-mcp", "--delay-ms", str(demo_delay_ms),
                            "--executions-log", self.executions_log, suite_flags=False)
        env = {
            "ADAS_REDIS_URL": self.redis.url,
            "ADAS_DEMO_MCP_URL": f"http://{self.demo.address}/mcp",
            "ADAS_VISIBILITY_TIMEOUT_MS": str(visibility_ms),
            "ADAS_STEP_ENGINE": step_engine,
            **(env or {}),
        }
        self.registry = Service("adas-skill-registry", env=env)
        self.intent = Service("adas-intent", env=env)
        self.gate = Service("adas-gate", env=env)
        self.dal = Service("adas-dal-agent", env=env)
        peers = {
            "ADAS_INTENT_ADDR": f"http://{self.intent.address}",
            "ADAS_DAL_AGENT_ADDR": f"http://{self.dal.address}",
            "ADAS_GATE_ADDR": f"http://{self.gate.address}",
            "ADAS_SKILL_REGISTRY_ADDR": f"http://{self.registry.address}",
        }
        self.orchestrator = Service("adas-orchestrator", env={**env, **peers})
        # Replicas side by side on the one store: each extra orchestrator and
        # dal-agent pair claims from the same queue and answers the same jobs.
        self.replicas = []
        for _ in range(replicas - 1):
            dal = Service("adas-dal-agent", env=env)
            orchestrator = Service("adas-orchestrator",
                                   env={**env, **peers, "ADAS_DAL_AGENT_ADDR": f"http://{dal.address}"})
            self.replicas.append((orchestrator, dal))
        # Job archives and the focus cache are the orchestrator's local export.
        self.memory_root = self.orchestrator.memory_root
        roots = {service.memory_root for service in self.services() if service is not self.demo}
        assert len(roots) == 3 + 2 * replicas, "every service has a disk of its own"

    def services(self):
        extra = [service for pair in self.replicas for service in pair]
        return [self.orchestrator, self.dal, *extra, self.gate, self.intent, self.registry, self.demo]

    def executions(self) -> list:
        """Every tool call the demo server executed: {"key", "tool"}, in order."""
        if not os.path.exists(self.executions_log):
            return []
        with open(self.executions_log, encoding="utf-8") as file:
            return [json.loads(line) for line in file if line.strip()]

    def duplicate_side_effects(self) -> list:
        """Side-effecting calls executed twice (one idempotency key, two
        executions), or executed without a key: ADAS promises there are none."""
        return [problem for problem in invariant_violations({}, self.executions())
                if "executed twice" in problem or "without an idempotency key" in problem]

    def event_logs(self) -> dict:
        """Every job's events (adas.storage.v1.JobEvent), read from the store."""
        return event_logs(self.redis.nodes if isinstance(self.redis, RedisCluster) else [self.redis])

    def invariant_violations(self) -> list:
        # A retention policy deletes finished jobs' logs as the run goes.
        retention = self.orchestrator.env.get("ADAS_JOB_RETENTION_MS", "0") != "0"
        return invariant_violations(self.event_logs(), self.executions(), complete_logs=not retention)

    def stop(self):
        """Stops every process (SIGTERM); fails if one did not exit 0 — a crash
        at shutdown is a bug, not noise — or if a side-effecting tool call was
        executed twice, or any other invariant of invariant_violations broken.
        Everything is stopped either way."""
        failures = self.invariant_violations()
        for service in self.services():
            try:
                code = service.stop()
                if code != 0:
                    failures.append(f"{service.process.args[0]} exited {code} after SIGTERM")
            except subprocess.TimeoutExpired:
                service.kill()
                failures.append(f"{service.process.args[0]} did not exit within 30 s of SIGTERM")
        self.redis.stop()
        if failures:
            raise AssertionError("; ".join(failures))
