"""Helpers for the Python end-to-end tests: generate the adas.v1 client from
proto/ with grpcio-tools, and run suite binaries on 127.0.0.1:0."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import socket
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
READY_TIMEOUT_S = 30


def generate_client() -> pathlib.Path:
    """Generates Python modules for every adas.v1 proto (and adas.storage.v1, the
    stored form of a job) into a temp dir on sys.path."""
    import grpc_tools
    from grpc_tools import protoc

    out = pathlib.Path(tempfile.mkdtemp(prefix="adas-pyclient-"))
    protos = sorted(str(path.relative_to(PROTO_ROOT)) for path in (PROTO_ROOT / "adas").glob("**/*.proto"))
    well_known = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
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
        self.env = {**os.environ, "ADAS_LOG_FORMAT": "json", "ADAS_LOG": "warn", **(env or {})}
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

    def __init__(self, durable: bool = False):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="adas-redis-")
        # Durable as deploy/ runs it: every write fsynced to the AOF before it
        # is acknowledged, so a restart loses nothing.
        self.persistence = (["--appendonly", "yes", "--appendfsync", "always"] if durable
                            else ["--appendonly", "no"])
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


class Suite:
    """The five services as separate processes on a private redis-server, with
    the demo MCP server — each with a memory root of its own, as every pod of
    deploy/k8s has: what they share is the store."""

    def __init__(self, demo_delay_ms: int = 0, visibility_ms: int = 60000, step_engine: str = "local",
                 durable_redis: bool = False):
        self.redis = Redis(durable=durable_redis)
        # The demo server logs every call it executes with its idempotency key.
        self.executions_log = os.path.join(tempfile.mkdtemp(prefix="adas-executions-"), "executions.jsonl")
        self.demo = Service("adas-demo-mcp", "--delay-ms", str(demo_delay_ms),
                            "--executions-log", self.executions_log, suite_flags=False)
        env = {
            "ADAS_REDIS_URL": self.redis.url,
            "ADAS_DEMO_MCP_URL": f"http://{self.demo.address}/mcp",
            "ADAS_VISIBILITY_TIMEOUT_MS": str(visibility_ms),
            "ADAS_STEP_ENGINE": step_engine,
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
        # Job archives and the focus cache are the orchestrator's local export.
        self.memory_root = self.orchestrator.memory_root
        roots = {service.memory_root for service in (self.registry, self.intent, self.gate, self.dal, self.orchestrator)}
        assert len(roots) == 5, "every service has a disk of its own"

    def services(self):
        return [self.orchestrator, self.dal, self.gate, self.intent, self.registry, self.demo]

    def executions(self) -> list:
        """Every tool call the demo server executed: {"key", "tool"}, in order."""
        if not os.path.exists(self.executions_log):
            return []
        with open(self.executions_log, encoding="utf-8") as file:
            return [json.loads(line) for line in file if line.strip()]

    def duplicate_side_effects(self) -> list:
        """Side-effecting calls executed twice (one idempotency key, two
        executions), or executed without a key: ADAS promises there are none."""
        seen, problems = set(), []
        for execution in self.executions():
            if execution["tool"] not in SIDE_EFFECTING_DEMO_TOOLS:
                continue
            if not execution["key"]:
                problems.append(f"{execution['tool']} executed without an idempotency key")
            elif execution["key"] in seen:
                problems.append(f"{execution['tool']} executed twice under key {execution['key']}")
            seen.add(execution["key"])
        return problems

    def stop(self):
        """Stops every process (SIGTERM); fails if one did not exit 0 — a crash
        at shutdown is a bug, not noise — or if a side-effecting tool call was
        executed twice. Everything is stopped either way."""
        failures = self.duplicate_side_effects()
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
