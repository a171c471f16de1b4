"""Chaos, quick form (issue 18): the five services as separate processes on a
durable Redis (AOF, fsync always), a load of jobs with pauses, answers and
approvals, while every service in turn is killed with -9 and restarted, and
Redis itself is restarted — 24 faults. Every job must reach a terminal state,
none may be lost, and no side-effecting tool call may be executed twice (the
demo MCP server logs every execution with the idempotency key ADAS sent).
The long form (more jobs, more rounds) is `ADAS_CHAOS_JOBS=200
ADAS_CHAOS_ROUNDS=20`; results in e2e/CHAOS.md."""

import os
import threading
import time
import unittest

import grpc
from google.protobuf import struct_pb2

import adas_client

adas_client.generate_client()

from adas.v1 import (  # noqa: E402  (generated above)
    dal_agent_service_pb2 as dal_pb2,
    gate_pb2,
    gate_service_pb2,
    job_pb2,
    orchestrator_service_pb2 as orch_pb2,
)
from test_jobs import Client  # noqa: E402

PAUSED, COMPLETED, FAILED, CANCELLED = (job_pb2.JOB_STATUS_PAUSED, job_pb2.JOB_STATUS_COMPLETED,
                                        job_pb2.JOB_STATUS_FAILED, job_pb2.JOB_STATUS_CANCELLED)
TERMINAL = (COMPLETED, FAILED, CANCELLED)
JOBS = int(os.environ.get("ADAS_CHAOS_JOBS", "24"))
ROUNDS = int(os.environ.get("ADAS_CHAOS_ROUNDS", "4"))


def value(v):
    return struct_pb2.Value(number_value=v) if isinstance(v, (int, float)) else struct_pb2.Value(string_value=v)


class ChaosQuick(unittest.TestCase):
    def test_faults_lose_no_job_and_repeat_no_side_effect(self):
        self.run_chaos(adas_client.Suite(demo_delay_ms=200, visibility_ms=1500, durable_redis=True))

    def run_chaos(self, suite):
        # Each job is driven through one replica pair (orchestrator, dal-agent).
        clients = [Client(suite)] + [Client(suite, replica) for replica in suite.replicas]
        c = clients[0]
        faults = []
        stop = threading.Event()

        def inject():
            services = [service for service in suite.services() if service is not suite.demo]
            for _ in range(ROUNDS):
                for service in services:
                    if stop.is_set():
                        return
                    service.kill()
                    service.restart(same_address=True)
                    faults.append(os.path.basename(service.command[0]))
                    time.sleep(0.3)
                suite.redis.restart()
                faults.append("redis-server")
                time.sleep(0.3)

        def call(method, request):
            """A client's retry: the same request (and request_id) until answered."""
            for _ in range(200):
                try:
                    return method(request, timeout=10)
                except grpc.RpcError as error:
                    if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                                        grpc.StatusCode.CANCELLED, grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN):
                        time.sleep(0.1)
                        continue
                    raise
            raise AssertionError(f"{method} never answered")

        try:
            def start(n):
                request = orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="I want a refund",
                                                   request_id=f"chaos-start-{n}")
                return call(clients[n % len(clients)].orch.StartJob, request).name

            names = [start(0)]
            # A second StartJob with a request_id already used is the same job.
            self.assertEqual(start(0), names[0])
            injector = threading.Thread(target=inject, daemon=True)
            injector.start()
            done, handed_over = {}, set()
            deadline = time.time() + 300
            # Jobs keep starting while the faults go on, so every fault meets
            # jobs in every state; the run ends when both are over.
            while (injector.is_alive() or len(done) < JOBS) and time.time() < deadline:
                if len(names) < JOBS:
                    names.append(start(len(names)))
                for index, name in enumerate(names):
                    if name in done:
                        continue
                    c = clients[index % len(clients)]
                    try:
                        job = c.orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=5)
                    except grpc.RpcError:
                        time.sleep(0.05)
                        continue
                    if job.status in TERMINAL:
                        done[name] = job
                        continue
                    if job.status != PAUSED or not job.waiting.correlation_id:
                        continue
                    waiting = job.waiting
                    rid = f"{name}-{waiting.correlation_id}"
                    try:
                        if waiting.reason_code == "APPROVAL_REQUIRED":
                            call(c.gate.DecideApproval, gate_service_pb2.DecideApprovalRequest(
                                job=name, correlation_id=waiting.correlation_id,
                                decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="chaos", request_id=rid))
                        else:
                            answers = {"order_id": "ORD-1", "amount": 700 if index % 2 else 30,
                                       "confirm": "yes", "reply": "Handled by an operator."}
                            if waiting.reason_code == "HUMAN_TAKEOVER_REQUIRED":
                                handed_over.add(name)
                            fields = {f: value(answers.get(f, "yes")) for f in waiting.requested_fields}
                            call(c.dal.SubmitInput, dal_pb2.SubmitInputRequest(
                                job=name, correlation_id=waiting.correlation_id, fields=fields, request_id=rid))
                    except grpc.RpcError as error:
                        # A stale correlation (answered by an earlier attempt) is refused: look again.
                        if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED,
                                                grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND):
                            raise
                time.sleep(0.05)
            stop.set()
            injector.join(timeout=120)
            lost = [name for name in names if name not in done]
            self.assertEqual(lost, [], "every job reaches a terminal state")
            failed = {name: job.error.message for name, job in done.items() if job.status != COMPLETED}
            self.assertEqual(failed, {}, "no job fails on a fault")
            self.assertGreaterEqual(len(faults), 20, faults)
            self.assertEqual(suite.duplicate_side_effects(), [], "no side effect twice")
            refunds = [e for e in suite.executions() if e["tool"] == "process_refund"]
            self.assertLessEqual(len(refunds), len(names))
            print(f"\nchaos: {len(names)} jobs, {len(faults)} faults, {len(refunds)} refunds, "
                  f"{len(handed_over)} handed to a human, 0 lost, 0 duplicates")
        finally:
            stop.set()
            for client in clients:
                client.close()
            suite.stop()


class ChaosOnAClusterWithReplicas(ChaosQuick):
    """The same run on a three-primary Redis Cluster (AOF, fsync always), with
    two orchestrators and two dal-agents side by side: the faults kill every
    process and restart one cluster node per round; no job is run twice."""

    def test_faults_lose_no_job_and_repeat_no_side_effect(self):
        self.run_chaos(adas_client.Suite(demo_delay_ms=200, visibility_ms=1500, durable_redis=True,
                                         cluster=True, replicas=2))


if __name__ == "__main__":
    unittest.main()
