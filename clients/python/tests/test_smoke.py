"""The installed adas-client package against `adas up`: a job started and
read back, jobs listed across skills, and a refusal's google.rpc details
decoded. Run by e2e/test.sh with the package installed (not from src/)."""

import os
import pathlib
import subprocess
import tempfile
import time
import unittest

import grpc
from google.rpc import error_details_pb2, status_pb2

from adas.v1 import job_pb2, orchestrator_service_pb2, orchestrator_service_pb2_grpc

ROOT = pathlib.Path(__file__).resolve().parents[3]


def adas_up():
    binary = pathlib.Path(os.environ.get("ADAS_BIN_DIR", ROOT / "target" / "debug")) / "adas"
    memory = tempfile.mkdtemp(prefix="adas-client-smoke-")
    process = subprocess.Popen(
        [str(binary), "up", "--listen", "127.0.0.1:0", "--demo-mcp-listen", "127.0.0.1:0", "--no-console",
         "--memory-root", memory, "--templates-dir", str(ROOT / "skill-templates")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "ADAS_LOG": "warn"})
    for line in process.stdout:
        if line.startswith("listening on "):
            return process, line[len("listening on "):].strip()
    raise RuntimeError("adas up did not serve")


class InstalledClient(unittest.TestCase):
    def test_a_job_round_trip_and_an_error_with_details(self):
        process, address = adas_up()
        try:
            with grpc.insecure_channel(address) as channel:
                jobs = orchestrator_service_pb2_grpc.OrchestratorServiceStub(channel)
                job = jobs.StartJob(orchestrator_service_pb2.StartJobRequest(
                    skill="skills/cs-tier-1", program='check_order_status(order_id="ORD-1")'), timeout=10)
                for _ in range(500):
                    job = jobs.GetJob(orchestrator_service_pb2.GetJobRequest(name=job.name), timeout=10)
                    if job.status == job_pb2.JOB_STATUS_COMPLETED:
                        break
                    time.sleep(0.02)
                self.assertEqual(job.status, job_pb2.JOB_STATUS_COMPLETED)
                self.assertEqual(job.tool_calls[0].tool, "check_order_status")

                listed = jobs.ListJobs(orchestrator_service_pb2.ListJobsRequest(parent="skills/-"), timeout=10)
                self.assertEqual([listed_job.name for listed_job in listed.jobs], [job.name])

                with self.assertRaises(grpc.RpcError) as refused:
                    jobs.ListJobs(orchestrator_service_pb2.ListJobsRequest(parent="skills/-", order_by="goal"),
                                  timeout=10)
                self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
                details = dict(refused.exception.trailing_metadata())["grpc-status-details-bin"]
                status = status_pb2.Status.FromString(details)
                bad_request = error_details_pb2.BadRequest()
                self.assertTrue(any(detail.Unpack(bad_request) for detail in status.details))
                self.assertEqual(bad_request.field_violations[0].field, "order_by")
        finally:
            process.terminate()
            process.wait(timeout=30)
            process.stdout.close()


if __name__ == "__main__":
    unittest.main()
