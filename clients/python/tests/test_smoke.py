"""The installed adas-client package against `adas up` (with an auth file,
so that the API key on the helper's channel is what lets calls in): who the
key is, a job started and waited for until it pauses, then cancelled and
read to its end, a job run to completion and listed, and a refusal's
google.rpc details read with error_details. Run by e2e/test.sh from a fresh
venv with the package installed (not from gen/ or src/): stdlib and the
package's own dependencies only."""

import os
import pathlib
import subprocess
import tempfile
import unittest

import grpc

import adas_client
from adas.v1 import job_pb2, orchestrator_service_pb2 as orch, orchestrator_service_pb2_grpc

ROOT = pathlib.Path(__file__).resolve().parents[3]
BINARY = pathlib.Path(os.environ.get("ADAS_BIN_DIR", ROOT / "target" / "debug")) / "adas"


def adas_up(auth_file):
    memory = tempfile.mkdtemp(prefix="adas-client-smoke-")
    process = subprocess.Popen(
        [str(BINARY), "up", "--listen", "127.0.0.1:0", "--demo-mcp-listen", "127.0.0.1:0", "--no-console",
         "--memory-root", memory, "--templates-dir", str(ROOT / "skill-templates"), "--auth-file", auth_file],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "ADAS_LOG": "warn"})
    for line in process.stdout:
        if line.startswith("listening on "):
            return process, line[len("listening on "):].strip()
    raise RuntimeError("adas up did not serve")


class InstalledClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        scratch = tempfile.mkdtemp(prefix="adas-client-auth-")
        auth_file = os.path.join(scratch, "auth.json")
        # The key is printed once, alone on stdout.
        cls.key = subprocess.run(
            [str(BINARY), "auth", "key", "create", "--auth-file", auth_file, "--tenant", "default",
             "--role", "user", "--name", "ann"], check=True, capture_output=True, text=True).stdout.strip()
        cls.process, cls.address = adas_up(auth_file)
        cls.channel = adas_client.channel(cls.address, api_key=cls.key)
        cls.jobs = orchestrator_service_pb2_grpc.OrchestratorServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.process.terminate()
        cls.process.wait(timeout=30)
        cls.process.stdout.close()

    def test_the_channel_presents_the_key(self):
        caller = self.jobs.GetCaller(orch.GetCallerRequest(), timeout=10)
        self.assertEqual((caller.name, caller.tenant), ("ann", "default"))
        with adas_client.channel(f"http://{self.address}") as keyless:
            with self.assertRaises(grpc.RpcError) as refused:
                orchestrator_service_pb2_grpc.OrchestratorServiceStub(keyless).GetCaller(
                    orch.GetCallerRequest(), timeout=10)
        self.assertEqual(refused.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
        self.assertEqual(adas_client.error_details(refused.exception).error_info.reason, "UNAUTHENTICATED")

    def test_a_job_waited_for_until_it_pauses_then_cancelled(self):
        job = self.jobs.StartJob(orch.StartJobRequest(skill="skills/cs-tier-1", goal="I want a refund"), timeout=10)
        paused = adas_client.wait_until_paused_or_done(self.jobs, job.name, timeout=30)
        self.assertEqual(paused.type, job_pb2.JOB_EVENT_TYPE_PAUSED)
        self.assertEqual(list(paused.data["requested_fields"]), ["order_id"])
        self.assertEqual(self.jobs.GetJob(orch.GetJobRequest(name=job.name), timeout=10).status,
                         job_pb2.JOB_STATUS_PAUSED)

        self.jobs.CancelJob(orch.CancelJobRequest(name=job.name, reason="smoke test"), timeout=10)
        # After the pause: the end, its stream read to the end.
        ended = adas_client.wait_until_paused_or_done(self.jobs, job.name, timeout=30,
                                                      after_event_id=paused.event_id)
        self.assertEqual((ended.type, ended.status), (job_pb2.JOB_EVENT_TYPE_CANCELLED, job_pb2.JOB_STATUS_CANCELLED))
        # A job that ended without the event asked for: None, not a hang.
        self.assertIsNone(adas_client.wait_for(self.jobs, job.name, lambda event: False, timeout=10))

    def test_a_job_run_to_completion_and_listed(self):
        job = self.jobs.StartJob(orch.StartJobRequest(
            skill="skills/cs-tier-1", program='check_order_status(order_id="ORD-1")'), timeout=10)
        done = adas_client.wait_until_paused_or_done(self.jobs, job.name, timeout=30)
        self.assertEqual(done.type, job_pb2.JOB_EVENT_TYPE_COMPLETED, done.message)
        job = self.jobs.GetJob(orch.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual(job.tool_calls[0].tool, "check_order_status")
        listed = self.jobs.ListJobs(orch.ListJobsRequest(parent="skills/-"), timeout=10)
        self.assertIn(job.name, [listed_job.name for listed_job in listed.jobs])

    def test_a_refusal_read_with_error_details(self):
        with self.assertRaises(grpc.RpcError) as refused:
            self.jobs.ListJobs(orch.ListJobsRequest(parent="skills/-", order_by="goal"), timeout=10)
        self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        details = adas_client.error_details(refused.exception)
        self.assertEqual(details.status.code, grpc.StatusCode.INVALID_ARGUMENT.value[0])
        self.assertEqual([violation.field for violation in details.field_violations], ["order_by"])
        self.assertEqual((details.error_info.reason, details.error_info.domain), ("INVALID_FIELD", "adas.dev"))


if __name__ == "__main__":
    unittest.main()
