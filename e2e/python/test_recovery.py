"""Recovery (issue 63): a failed job, or one handed to a human, is run again
as a new job linked both ways — once, however often it is asked — and jobs
are cancelled many at a time from the CLI, each cancel its own and audited."""

import subprocess
import time
import unittest

import grpc

import adas_client

adas_client.generate_client()

from google.protobuf import struct_pb2  # noqa: E402

from adas.v1 import (  # noqa: E402  (generated above)
    dal_agent_service_pb2 as dal_pb2,
    dal_agent_service_pb2_grpc as dal_grpc,
    gate_pb2,
    gate_service_pb2,
    gate_service_pb2_grpc,
    job_pb2,
    orchestrator_service_pb2 as orch_pb2,
    orchestrator_service_pb2_grpc as orch_grpc,
)

ENDED = (job_pb2.JOB_STATUS_COMPLETED, job_pb2.JOB_STATUS_FAILED, job_pb2.JOB_STATUS_CANCELLED)


class Recovery(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = adas_client.Service("adas", "up", "--demo-mcp-listen", "127.0.0.1:0")
        cls.channel = grpc.insecure_channel(cls.service.address)
        cls.orch = orch_grpc.OrchestratorServiceStub(cls.channel)
        cls.gate = gate_service_pb2_grpc.GateServiceStub(cls.channel)
        cls.dal = dal_grpc.DalAgentServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.service.stop()

    def settle(self, name, done=lambda job: job.status not in (job_pb2.JOB_STATUS_QUEUED, job_pb2.JOB_STATUS_RUNNING)):
        for _ in range(500):
            job = self.orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=10)
            if done(job):
                return job
            time.sleep(0.02)
        raise AssertionError(f"job {name} did not settle")

    def start(self, **request):
        job = self.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", **request), timeout=10)
        return self.settle(job.name)

    def test_a_failed_job_is_retried_once_with_the_same_inputs(self):
        program = 'process_refund(order_id="ORD-1", amount=700)'
        job = self.start(program=program)
        self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
        self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=job.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_REJECT, comment="wrong amount"), timeout=10)
        failed = self.settle(job.name)
        self.assertEqual(failed.status, job_pb2.JOB_STATUS_FAILED)

        retry = self.orch.RetryJob(orch_pb2.RetryJobRequest(name=job.name), timeout=10)
        self.assertNotEqual(retry.name, job.name)
        self.assertEqual((retry.retry_of, retry.goal, retry.conversation), (job.name, job.goal, job.conversation))
        old = self.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual((old.retried_by, old.status), (retry.name, job_pb2.JOB_STATUS_FAILED))
        # The same inputs: the client's program runs again, to the same approval.
        again = self.settle(retry.name)
        self.assertEqual(again.waiting.reason_code, "APPROVAL_REQUIRED")
        self.assertEqual(again.waiting.approval.tool, "process_refund")
        self.assertEqual(again.waiting.approval.arguments["amount"], 700)
        # Once: asked again (a retried request, a second operator), the same job.
        twice = self.orch.RetryJob(orch_pb2.RetryJobRequest(name=job.name), timeout=10)
        self.assertEqual(twice.name, retry.name)

    def test_a_job_that_was_answered_is_retried_with_what_the_client_gave(self):
        # The job's context gains the answers; the retry starts from what the
        # client gave, and the answers come along as the conversation's.
        job = self.start(goal="I want a refund")
        for field, value in (("order_id", "ORD-1"), ("amount", 700)):
            job = self.settle(job.name, lambda j: j.status == job_pb2.JOB_STATUS_PAUSED
                              and field in j.waiting.requested_fields)
            answer = struct_pb2.Value()
            if isinstance(value, str):
                answer.string_value = value
            else:
                answer.number_value = value
            self.dal.SubmitInput(dal_pb2.SubmitInputRequest(
                job=job.name, correlation_id=job.waiting.correlation_id, fields={field: answer}), timeout=10)
        job = self.settle(job.name, lambda j: j.status == job_pb2.JOB_STATUS_PAUSED
                          and j.waiting.reason_code == "APPROVAL_REQUIRED")
        self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=job.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_REJECT), timeout=10)
        self.settle(job.name, lambda j: j.status == job_pb2.JOB_STATUS_FAILED)
        retry = self.orch.RetryJob(orch_pb2.RetryJobRequest(name=job.name), timeout=10)
        self.assertEqual((retry.retry_of, retry.conversation), (job.name, job.conversation))
        again = self.settle(retry.name)
        self.assertNotEqual(again.status, job_pb2.JOB_STATUS_FAILED, again.error.message)

    def test_an_escalated_job_is_retried_and_cancelled_for_it(self):
        job = self.start(goal="I already filed a chargeback with my bank for ORD-12345, refund it now")
        self.assertEqual(job.waiting.reason_code, "HUMAN_TAKEOVER_REQUIRED")
        retry = self.orch.RetryJob(orch_pb2.RetryJobRequest(name=job.name), timeout=10)
        old = self.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual((old.status, old.retried_by), (job_pb2.JOB_STATUS_CANCELLED, retry.name))
        cancelled = [event for event in self.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=10)
                     if event.type == job_pb2.JOB_EVENT_TYPE_CANCELLED]
        self.assertEqual([event.data["reason"] for event in cancelled], [f"retried as {retry.name}"])

    def test_only_a_failed_or_escalated_job_is_retried(self):
        done = self.start(program='check_order_status(order_id="ORD-1")')
        self.assertEqual(done.status, job_pb2.JOB_STATUS_COMPLETED)
        asking = self.start(goal="I want a refund")
        self.assertEqual(asking.status, job_pb2.JOB_STATUS_PAUSED)
        for job in (done, asking):
            with self.assertRaises(grpc.RpcError) as refused:
                self.orch.RetryJob(orch_pb2.RetryJobRequest(name=job.name), timeout=10)
            self.assertEqual(refused.exception.code(), grpc.StatusCode.FAILED_PRECONDITION, job.status)
            self.assertIn("only a failed job, or one handed to a human, is retried", refused.exception.details())
            self.assertEqual(self.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10).retried_by, "")
        with self.assertRaises(grpc.RpcError) as malformed:
            self.orch.RetryJob(orch_pb2.RetryJobRequest(name="skills/cs-tier-1/nope"), timeout=10)
        self.assertEqual(malformed.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)

    def test_the_cli_retries_and_cancels_many_from_a_listing(self):
        adas = [str(adas_client.binary("adas")), "--server", self.service.address]
        waiting = [self.start(goal="I want a refund").name for _ in range(3)]
        # From `adas job list`, as a person pipes it.
        listing = subprocess.run(adas + ["job", "list", "cs-tier-1", "--status", "paused", "--limit", "0"],
                                 capture_output=True, text=True, check=True).stdout
        piped = subprocess.run(adas + ["job", "cancel", "-", "--reason", "clearing the queue"], input=listing,
                               capture_output=True, text=True)
        self.assertEqual(piped.returncode, 0, piped.stderr)
        for name in waiting:
            self.assertIn(f"{name}\tcancelled", piped.stdout)
            job = self.orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=10)
            self.assertEqual(job.status, job_pb2.JOB_STATUS_CANCELLED)
        # A reason past 4 KiB is refused, the job left as it was.
        huge = subprocess.run(adas + ["job", "cancel", waiting[0], "--reason", "x" * 5000], capture_output=True, text=True)
        self.assertNotEqual(huge.returncode, 0)
        self.assertIn("reason", huge.stderr)
        # One that cannot be cancelled is said, the others still are, and the command fails.
        more = self.start(goal="I want a refund").name
        mixed = subprocess.run(adas + ["job", "cancel", waiting[0], "skills/cs-tier-1/jobs/j-nope", more],
                               capture_output=True, text=True)
        self.assertNotEqual(mixed.returncode, 0)
        self.assertIn(f"{more}\tcancelled", mixed.stdout)
        self.assertIn("skills/cs-tier-1/jobs/j-nope\t", mixed.stdout)
        # And a retry from the CLI prints the new job.
        failed = self.start(program='process_refund(order_id="ORD-1", amount=700)')
        self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=failed.name, correlation_id=failed.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_REJECT), timeout=10)
        self.settle(failed.name, lambda job: job.status in ENDED)
        retried = subprocess.run(adas + ["job", "retry", failed.name], capture_output=True, text=True, check=True)
        new = retried.stdout.strip()
        self.assertEqual(self.orch.GetJob(orch_pb2.GetJobRequest(name=new), timeout=10).retry_of, failed.name)


if __name__ == "__main__":
    unittest.main()
