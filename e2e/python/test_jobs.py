"""Jobs end to end (issue 7) with the five services as separate processes on a
private redis-server and the demo MCP server, driven by the Python client
generated from proto/."""

import concurrent.futures
import json
import os
import threading
import time
import unittest

import grpc
from google.protobuf import json_format, struct_pb2

import adas_client

adas_client.generate_client()

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
from adas.storage.v1 import job_record_pb2  # noqa: E402

PAUSED, COMPLETED, FAILED, CANCELLED = (job_pb2.JOB_STATUS_PAUSED, job_pb2.JOB_STATUS_COMPLETED,
                                        job_pb2.JOB_STATUS_FAILED, job_pb2.JOB_STATUS_CANCELLED)


def archived(memory_root, slag, job_id, timeout=10):
    """The archive file holding a finished job and its line ({"job", "events"}),
    waiting (bounded) for the background writer; (None, None) if never written."""
    jobs = os.path.join(memory_root, slag, "jobs")
    deadline = time.monotonic() + timeout
    while True:
        for name in sorted(os.listdir(jobs)) if os.path.isdir(jobs) else []:
            if not name.endswith(".jsonl"):
                continue
            path = os.path.join(jobs, name)
            with open(path) as handle:
                for line in handle:
                    if line.endswith("\n") and f'"{job_id}"' in line:
                        entry = json.loads(line)
                        if entry["job"]["job_id"] == job_id:
                            return path, entry
        if time.monotonic() > deadline:
            return None, None
        time.sleep(0.05)


def text(value):
    return struct_pb2.Value(string_value=value)


def number(value):
    return struct_pb2.Value(number_value=value)


class Client:
    def __init__(self, suite, replica=None):
        """Talks to the suite's first orchestrator and dal-agent, or to the
        `replica` pair (orchestrator, dal-agent) of a suite with replicas."""
        self.suite = suite
        self.channels = []
        orchestrator, dal = replica or (suite.orchestrator, suite.dal)
        self.orch = orch_grpc.OrchestratorServiceStub(self.channel(orchestrator))
        self.dal = dal_grpc.DalAgentServiceStub(self.channel(dal))
        self.gate = gate_service_pb2_grpc.GateServiceStub(self.channel(suite.gate))

    def channel(self, service):
        channel = grpc.insecure_channel(service.address)
        self.channels.append(channel)
        return channel

    def close(self):
        for channel in self.channels:
            channel.close()

    def start(self, goal, skill="skills/cs-tier-1", **context):
        request = orch_pb2.StartJobRequest(skill=skill, goal=goal)
        request.context.update(context)
        return self.orch.StartJob(request, timeout=10)

    def wait(self, name, predicate, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            job = self.orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=10)
            if predicate(job):
                return job
            time.sleep(0.05)
        raise AssertionError(f"{name} never reached the expected state; last: status={job.status} "
                             f"outcome={job.outcome_class} error={job.error.message!r}")

    def settled(self, name, after_version=0, timeout=30):
        return self.wait(name, lambda job: job.version > after_version and job.status in (PAUSED, COMPLETED, FAILED, CANCELLED),
                         timeout)

    def paused(self, skill):
        """Every paused job of `skill` by ListJobs: other tests leave many, so
        the pages are followed to the end."""
        paused, token = [], ""
        while True:
            page = self.orch.ListJobs(orch_pb2.ListJobsRequest(parent=skill, status=PAUSED, page_size=500, page_token=token), timeout=10)
            paused.extend(page.jobs)
            token = page.next_page_token
            if not token:
                return paused

    def answer(self, job, **fields):
        return self.dal.SubmitInput(dal_pb2.SubmitInputRequest(
            job=job.name, correlation_id=job.waiting.correlation_id, fields=fields), timeout=10)


class JobsOnSeparateProcesses(unittest.TestCase):
    # The park sweep packs a job as soon as it waits (about a second here, 10 s
    # by default), so these jobs are answered parked as often as not.
    PARK_NOW = {"ADAS_PARK_AFTER_MS": "0"}

    @classmethod
    def setUpClass(cls):
        cls.suite = adas_client.Suite(env=cls.PARK_NOW)
        cls.client = Client(cls.suite)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.suite.stop()

    def stored(self, job):
        """The record as Redis holds it: protobuf (adas.storage.v1.JobRecord)."""
        raw = adas_client.stored_record(self.suite.redis, job.slag, job.job_id)
        return job_record_pb2.JobRecord.FromString(raw)

    def test_refund_conversation_of_spec_004(self):
        c = self.client
        job = c.start("I want a refund")
        job = c.settled(job.name)
        self.assertEqual((job.status, job.outcome_class), (PAUSED, job_pb2.OUTCOME_CLASS_USER_ACTION_REQUIRED))
        self.assertEqual(list(job.waiting.requested_fields), ["order_id"])
        self.assertEqual(job.iteration, 0)

        # The stored record holds spec 000's contract (compact: protobuf, times in ms).
        raw = adas_client.stored_record(self.suite.redis, job.slag, job.job_id)
        self.assertLessEqual(len(raw), 1024, "a paused job's record fits in 1 KiB")
        # Parked once it has waited (by the park sweep): record and events packed
        # in its one key, no log list.
        key = adas_client.slag_key(job.slag, f"job:{job.job_id}")
        deadline = time.monotonic() + 30
        while True:
            header = self.suite.redis.command("GETRANGE", key, "0", "63", raw=True).split(b"\n")[0]
            if header.split(b" ")[3] == b"p" or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual(header.split(b" ")[3], b"p", header)
        self.assertEqual(self.suite.redis.command("EXISTS", adas_client.slag_key(job.slag, f"log:{job.job_id}")), 0)
        self.assertLess(self.suite.redis.command("STRLEN", key), len(raw), "packed smaller than the record alone")
        # In one index while it waits: the waiting index, not its status's too.
        self.assertIsNotNone(self.suite.redis.command("ZSCORE", adas_client.slag_key(job.slag, "waiting"), job.job_id))
        self.assertIsNone(self.suite.redis.command("ZSCORE", adas_client.slag_key(job.slag, "status:paused"), job.job_id))
        stored = self.stored(job)
        self.assertEqual(stored.status, job_record_pb2.JOB_STATUS_PAUSED)
        self.assertEqual(stored.outcome_class, job_record_pb2.OUTCOME_CLASS_USER_ACTION_REQUIRED)
        waiting = stored.waiting
        self.assertEqual(waiting.reason_code, "MISSING_REQUIRED_INPUT")
        self.assertEqual(list(waiting.requested_fields), ["order_id"])
        self.assertEqual(waiting.correlation_id, job.waiting.correlation_id)
        self.assertEqual(waiting.prompt_message, job.waiting.prompt_message)
        self.assertEqual(waiting.created_ms, job.waiting.created_at.ToMilliseconds())
        self.assertEqual(waiting.created_ms, waiting.last_prompt_ms)

        resumed = c.answer(job, order_id=text("ORD-1"))
        job = c.settled(job.name, resumed.version)
        self.assertEqual(list(job.waiting.requested_fields), ["amount"], "a known field is never asked again")
        resumed = c.answer(job, amount=number(700))
        job = c.settled(job.name, resumed.version)
        self.assertEqual((job.status, job.outcome_class), (PAUSED, job_pb2.OUTCOME_CLASS_APPROVAL_REQUIRED))
        self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
        self.assertEqual((job.waiting.approval.tool, job.waiting.approval.approver), ("process_refund", "supervisor"))

        self.assertIn(job.name, [j.name for j in c.paused("skills/cs-tier-1")], "ListJobs PAUSED reads the waiting index")

        record = c.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=job.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="ok"), timeout=10)
        self.assertEqual(record.call_digest, job.waiting.approval.call_digest)
        job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual((job.status, job.outcome_class), (COMPLETED, job_pb2.OUTCOME_CLASS_SUCCESS), job.error.message)
        fields = dict(job.result.output_fields)
        self.assertEqual(set(fields), {"order_id", "status", "next_steps"})
        self.assertEqual(fields["status"], "refunded")
        self.assertIn("refund", job.result.reply.lower())
        self.assertEqual([call.tool for call in job.result.tool_calls], ["check_order_status", "process_refund"])
        # The archive is written off the job's path, shortly after it ends.
        # One line per job in its skill's archive of the hour, with its events.
        path, entry = archived(self.suite.memory_root, "cs-tier-1", job.job_id)
        self.assertIsNotNone(path, "the finished job is archived")
        self.assertRegex(os.path.basename(path), r"^\d{4}-\d{2}-\d{2}T\d{2}\.jsonl$")
        self.assertEqual([audit["action"] for audit in entry["job"]["audit"]], ["answer", "answer", "approve"])
        self.assertEqual(entry["events"][0]["event"]["kind"], "created")
        self.assertEqual(entry["events"][-1]["event"]["kind"], "completed")

    def test_duplicates_with_one_request_id_have_one_effect_under_concurrency(self):
        c = self.client
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=8)

        def at_once(call, request):
            """Eight copies of one request in flight together; every answer."""
            def one(_):
                try:
                    return call(request, timeout=10)
                except grpc.RpcError as error:
                    return error
            return list(pool.map(one, range(8)))

        try:
            start = orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="I want a refund",
                                             request_id=f"dup-start-{time.time_ns()}")
            started = at_once(c.orch.StartJob, start)
            names = {job.name for job in started if not isinstance(job, grpc.RpcError)}
            self.assertEqual(len(names), 1, f"one job for one request_id: {started}")
            job = c.settled(names.pop())
            self.assertEqual(list(job.waiting.requested_fields), ["order_id"])

            def answer_at_once(job, **fields):
                request = dal_pb2.SubmitInputRequest(job=job.name, correlation_id=job.waiting.correlation_id,
                                                     fields=fields, request_id=f"dup-answer-{time.time_ns()}")
                replies = at_once(c.dal.SubmitInput, request)
                ok = [reply for reply in replies if not isinstance(reply, grpc.RpcError)]
                self.assertEqual(len(ok), 8, f"every copy gets the first one's answer: {replies}")
                # Each gets the job as it is when it answers (a twin that lost
                # the race reads it later); the effect is counted below.
                return min(ok, key=lambda reply: reply.version)

            resumed = answer_at_once(job, order_id=text("ORD-1"))
            job = c.settled(job.name, resumed.version)
            resumed = answer_at_once(job, amount=number(700))
            job = c.settled(job.name, resumed.version)
            self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
            decide = gate_service_pb2.DecideApprovalRequest(
                job=job.name, correlation_id=job.waiting.correlation_id,
                decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="once", request_id=f"dup-approve-{time.time_ns()}")
            decisions = at_once(c.gate.DecideApproval, decide)
            ok = [d for d in decisions if not isinstance(d, grpc.RpcError)]
            self.assertEqual(len(ok), 8, f"every copy gets the decision: {decisions}")
            self.assertEqual(len({(d.decided_by, d.decide_time.ToNanoseconds()) for d in ok}), 1, "decided once")
            job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
            self.assertEqual(job.status, COMPLETED, job.error.message)
            kinds = []
            for event in c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=10):
                kinds.append(event.type)
                if event.type == job_pb2.JOB_EVENT_TYPE_COMPLETED:
                    break
            self.assertEqual(kinds.count(job_pb2.JOB_EVENT_TYPE_RESUMED), 3, "two answers and one approval, once each")
        finally:
            pool.shutdown()

    def test_a_start_that_died_before_storing_its_job_is_made_by_the_retry(self):
        # An orchestrator killed after remembering a request id and before
        # storing the job left the id pointing at nothing: the client's retry
        # got NOT_FOUND forever (seen in the chaos run). Now the retry stores
        # that job, under that id — but never one that ended and was deleted.
        c = self.client
        request = orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="where is ORD-1", request_id="died-1")
        first = c.orch.StartJob(request, timeout=10)
        c.settled(first.name)
        job_key = adas_client.slag_key("cs-tier-1", f"job:{first.job_id}")
        self.assertEqual(self.suite.redis.command("DEL", job_key), 1)  # as if never stored
        again = c.orch.StartJob(request, timeout=10)
        self.assertEqual(again.name, first.name)
        self.assertEqual(c.settled(first.name).status, COMPLETED)

        # Remembered long ago (the job ended and its record is gone): NOT_FOUND, nothing re-run.
        request = orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="where is ORD-2", request_id="died-2")
        old = c.orch.StartJob(request, timeout=10)
        c.settled(old.name)
        idem = adas_client.slag_key("cs-tier-1", "idem:start-job:dev:died-2")
        job_id, fingerprint, _ = self.suite.redis.command("GET", idem).split(" ")
        self.suite.redis.command("SET", idem, f"{job_id} {fingerprint} 1000", "KEEPTTL")
        self.suite.redis.command("DEL", adas_client.slag_key("cs-tier-1", f"job:{old.job_id}"))
        with self.assertRaises(grpc.RpcError) as gone:
            c.orch.StartJob(request, timeout=10)
        self.assertEqual(gone.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_order_status_example_of_spec_000(self):
        c = self.client
        job = c.settled(c.start("What's my order status?").name)
        self.assertEqual(list(job.waiting.requested_fields), ["order_id"])
        self.assertEqual(job.waiting.prompt_message,
                         "What's your order number? You can find it in your confirmation email.")
        resumed = c.answer(job, order_id=text("ORD-12345"))
        job = c.wait(job.name, lambda j: j.version > resumed.version and j.status in (COMPLETED, FAILED))
        self.assertEqual(job.status, COMPLETED, job.error.message)
        call = job.result.tool_calls[0]
        self.assertEqual((call.tool, call.arguments["order_id"]), ("check_order_status", "ORD-12345"))
        self.assertEqual(job.result.output_fields["status"], "shipped")

    def test_out_of_domain_is_an_answer_not_an_error(self):
        job = self.client.settled(self.client.start("what's the weather").name)
        self.assertEqual((job.status, job.outcome_class), (COMPLETED, job_pb2.OUTCOME_CLASS_OUT_OF_DOMAIN))
        self.assertEqual(job.result.reply, "I can only help with orders and refunds")

    def test_wrong_correlation_and_ill_typed_answers_change_nothing(self):
        c = self.client
        job = c.settled(c.start("I want a refund for ORD-1").name)
        self.assertEqual(list(job.waiting.requested_fields), ["amount"])
        with self.assertRaises(grpc.RpcError) as stale:
            c.dal.SubmitInput(dal_pb2.SubmitInputRequest(job=job.name, correlation_id="c-stale", fields={"amount": number(5)}), timeout=10)
        self.assertEqual(stale.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)
        with self.assertRaises(grpc.RpcError) as bad:
            c.answer(job, amount=text("lots"))
        self.assertEqual(bad.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        after = c.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual(after.status, PAUSED)
        self.assertEqual(after.waiting.correlation_id, job.waiting.correlation_id)
        self.assertEqual(list(after.waiting.requested_fields), ["amount"])
        self.assertEqual(after.plan.program, job.plan.program, "the plan is unchanged")
        self.assertEqual(after.waiting.invalid_answer_count, 1)

        resumed = c.answer(after, amount=text("120"))
        job = c.wait(job.name, lambda j: j.version > resumed.version and j.status in (COMPLETED, FAILED))
        self.assertEqual(job.status, COMPLETED, job.error.message)

    def test_resolve_next_answers_in_the_view_asked_for(self):
        c = self.client
        job = c.settled(c.start("What's my order status?").name)
        self.assertEqual(job.status, PAUSED)
        basic = c.dal.ResolveNext(dal_pb2.ResolveNextRequest(job=job.name, view=job_pb2.JOB_VIEW_BASIC), timeout=10)
        self.assertEqual(basic.WhichOneof("next"), "waiting")
        self.assertEqual((basic.job.name, basic.job.version, basic.job.status), (job.name, job.version, PAUSED))
        self.assertFalse(basic.job.HasField("plan"), "BASIC leaves the plan out")
        self.assertFalse(basic.job.HasField("context"))
        full = c.dal.ResolveNext(dal_pb2.ResolveNextRequest(job=job.name), timeout=10)
        self.assertTrue(full.job.HasField("plan"), "the default view is FULL")
        self.assertEqual(full.job.version, job.version, "resolving a paused job writes nothing")
        with self.assertRaises(grpc.RpcError) as bad:
            c.dal.ResolveNext(dal_pb2.ResolveNextRequest(job=job.name, view=42), timeout=10)
        self.assertEqual(bad.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)

    def test_cancel_while_paused(self):
        c = self.client
        job = c.settled(c.start("What's my order status?").name)
        waiting = c.dal.ListWaiting(dal_pb2.ListWaitingRequest(parent="skills/cs-tier-1", page_size=1000), timeout=10)
        self.assertIn(job.name, [j.name for j in waiting.jobs])
        cancelled = c.orch.CancelJob(orch_pb2.CancelJobRequest(name=job.name, reason="changed my mind"), timeout=10)
        self.assertEqual((cancelled.status, cancelled.outcome_class), (CANCELLED, job_pb2.OUTCOME_CLASS_CANCELLED))
        waiting = c.dal.ListWaiting(dal_pb2.ListWaitingRequest(parent="skills/cs-tier-1", page_size=1000), timeout=10)
        self.assertNotIn(job.name, [j.name for j in waiting.jobs])
        with self.assertRaises(grpc.RpcError) as late:
            c.answer(job, order_id=text("ORD-1"))
        self.assertEqual(late.exception.code(), grpc.StatusCode.FAILED_PRECONDITION)

    def test_start_is_idempotent_validates_resources_and_lists_by_status(self):
        c = self.client
        first = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="What's my order status?", request_id="req-42"), timeout=10)
        again = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="What's my order status?", request_id="req-42"), timeout=10)
        self.assertEqual(first.name, again.name, "a repeated request_id returns the first job")
        with self.assertRaises(grpc.RpcError) as reused:
            c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="something else", request_id="req-42"), timeout=10)
        self.assertEqual(reused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, "AIP-155: same id, other payload")

        with self.assertRaises(grpc.RpcError) as missing:
            c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/sw-dev-agent", goal="List the files"), timeout=10)
        self.assertEqual(missing.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("codebase", missing.exception.details())

        job = c.settled(first.name)
        waiting = c.dal.GetWaiting(dal_pb2.GetWaitingRequest(name=job.name), timeout=10)
        self.assertEqual(waiting.correlation_id, job.waiting.correlation_id)
        paused = c.paused("skills/cs-tier-1")
        self.assertIn(job.name, [j.name for j in paused])
        self.assertTrue(all(j.status == PAUSED for j in paused))
        c.start("What's my order status?")
        page = c.orch.ListJobs(orch_pb2.ListJobsRequest(parent="skills/cs-tier-1", page_size=1), timeout=10)
        self.assertEqual(len(page.jobs), 1)
        self.assertTrue(page.next_page_token)
        other = c.orch.ListJobs(orch_pb2.ListJobsRequest(parent="skills/devops-tier-1", page_size=1000), timeout=10)
        self.assertNotIn(job.name, [j.name for j in other.jobs], "slags never see each other's jobs")

    def test_a_clients_own_program_runs_gated_and_asks(self):
        c = self.client
        program = 'check_order_status(order_id="ORD-1"), process_refund(order_id="ORD-1", amount=ASK("How much?"))'
        job = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", program=program), timeout=10)
        job = c.settled(job.name)
        # The ASK pauses the job like any missing input: no intent was detected.
        self.assertEqual((job.status, job.outcome_class), (PAUSED, job_pb2.OUTCOME_CLASS_USER_ACTION_REQUIRED))
        self.assertEqual(list(job.waiting.requested_fields), ["amount"])
        self.assertFalse(job.intent.intent_id)
        resumed = c.answer(job, amount=number(900))
        job = c.settled(job.name, resumed.version)
        # The policy still holds: above the threshold the call waits for a supervisor.
        self.assertEqual((job.status, job.outcome_class), (PAUSED, job_pb2.OUTCOME_CLASS_APPROVAL_REQUIRED))
        self.assertEqual((job.waiting.approval.tool, job.waiting.approval.approver), ("process_refund", "supervisor"))
        c.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=job.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="ok"), timeout=10)
        job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual(job.status, COMPLETED, job.error.message)
        self.assertEqual([call.tool for call in job.result.tool_calls], ["check_order_status", "process_refund"])

        # A required input the program leaves out is asked before the call runs.
        job = c.orch.StartJob(orch_pb2.StartJobRequest(
            skill="skills/cs-tier-1", program='process_refund(order_id="ORD-2")'), timeout=10)
        job = c.settled(job.name)
        self.assertEqual((job.status, list(job.waiting.requested_fields)), (PAUSED, ["amount"]))

        # A program that does not parse is refused with its position; nothing is stored.
        before = c.orch.ListJobs(orch_pb2.ListJobsRequest(parent="skills/cs-tier-1", page_size=1000), timeout=10)
        with self.assertRaises(grpc.RpcError) as caught:
            c.orch.StartJob(orch_pb2.StartJobRequest(
                skill="skills/cs-tier-1", program='process_refund(order_id="ORD-9",'), timeout=10)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("program: 1:33: expected", caught.exception.details())
        after = c.orch.ListJobs(orch_pb2.ListJobsRequest(parent="skills/cs-tier-1", page_size=1000), timeout=10)
        self.assertEqual(len(after.jobs), len(before.jobs))

    def test_large_tool_outputs_live_in_the_focus_cache(self):
        c = self.client
        registry = __import__("adas.v1.skill_registry_service_pb2_grpc", fromlist=["x"])
        registry_pb2 = __import__("adas.v1.skill_registry_service_pb2", fromlist=["x"])
        stub = registry.SkillRegistryServiceStub(c.channel(self.suite.registry))
        stub.PutSkill(registry_pb2.PutSkillRequest(name="skills/echoes", source=(
            "name: Echoes\nproblem: {statement: Echo text}\nintents: {supported: [{id: echo}]}\ntools: []\n"
            "engine:\n  finalization_gate: {enabled: false}\n")), timeout=10)
        big = "x" * 20000
        job = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/echoes", program=f'sys.echo(text="{big}")'),
                              timeout=10)
        job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual(job.status, COMPLETED, job.error.message)
        # The job keeps a reference, not a copy…
        output = json_format.MessageToDict(job.result.tool_calls[0].output)
        self.assertEqual(sorted(output), ["bytes", "focus_ref", "preview"])
        self.assertEqual(output["bytes"], len(json.dumps({"text": big}, separators=(",", ":"))))
        stored = self.stored(job)
        self.assertEqual(json.loads(stored.calls[0].output_json)["focus_ref"], output["focus_ref"],
                         "the stored call holds the reference")
        # …the artifact is in the slag's focus cache, in the store (no disk)…
        artifact = self.suite.redis.command("GET", adas_client.slag_key("echoes", f"focus:a:{output['focus_ref']}"))
        self.assertTrue(json.loads(artifact) == {"text": big}, "the artifact is the whole output")
        self.assertFalse(os.path.exists(os.path.join(self.suite.memory_root, "echoes", "focus-cache")))
        # …and finalization read it back: the answer carries the whole output.
        self.assertTrue(dict(job.result.output_fields)["text"] == big, "the whole output is in the answer")
        events = list(c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=10))
        finished = [e for e in events if e.type == job_pb2.JOB_EVENT_TYPE_TOOL_FINISHED][0]
        self.assertEqual(json_format.MessageToDict(finished.data)["output"]["focus_ref"], output["focus_ref"])

    def test_events_stream_and_resume_from_the_last_id(self):
        c = self.client
        job = c.settled(c.start("I want a refund").name)
        with self.assertRaises(grpc.RpcError):
            c.answer(job, order_id=text(""))  # refused: the job still waits
        job = c.wait(job.name, lambda j: j.status == PAUSED and j.waiting.correlation_id)
        resumed = c.answer(job, order_id=text("ORD-2"))
        job = c.settled(job.name, resumed.version)
        resumed = c.answer(job, amount=number(25))
        job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual(job.status, COMPLETED, job.error.message)
        events = list(c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=10))
        names = [job_pb2.JobEventType.Name(event.type).removeprefix("JOB_EVENT_TYPE_").lower() for event in events]
        # Every event, in order: each kind the engine emits reaches clients by
        # name. `resolved` is written only when resolving changed the plan, which
        # depends on whether the answer's write already filled the slot: it is
        # checked apart.
        self.assertIn("resolved", names)
        self.assertEqual([name for name in names if name != "resolved"], [
            "created", "running", "planned", "paused",      # the order id is missing
            "answer_refused",                                # an empty order id
            "resumed", "running",
            "tool_started", "tool_finished",                 # check_order_status
            "paused",                                        # then the amount is missing
            "resumed", "running",
            "tool_started", "tool_finished",                 # process_refund under the threshold
            "finalized", "completed",
        ])
        self.assertNotIn(job_pb2.JOB_EVENT_TYPE_UNSPECIFIED, [event.type for event in events])
        # Each call's gate word names a real rule kind: none applies to these
        # two (the refund is under the threshold), and that is said, not left unset.
        self.assertEqual([json_format.MessageToDict(event.data)["gate"]["rule_kind"] for event in events
                          if event.type == job_pb2.JOB_EVENT_TYPE_TOOL_STARTED],
                         ["GATE_RULE_KIND_NO_RULE"] * 2)
        refused = events[names.index("answer_refused")]
        self.assertEqual(refused.status, PAUSED)
        self.assertEqual([e.job_version for e in events], sorted(e.job_version for e in events))
        tail = list(c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name, after_event_id=events[2].event_id), timeout=10))
        self.assertEqual([e.event_id for e in tail], [e.event_id for e in events[3:]])
        self.assertEqual([e.event_id for e in events], [str(n) for n in range(1, len(events) + 1)],
                         "an event's id is its position in the job's log")
        for hostile in ("not-an-id", "+1", "-1", "9223372036854775808", "1-2-3", "9" * 4096):
            with self.assertRaises(grpc.RpcError) as refused_id:
                list(c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name, after_event_id=hostile), timeout=10))
            self.assertEqual(refused_id.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, hostile[:40])

    def test_paused_jobs_burn_no_iterations_and_leave_workers_idle(self):
        c = self.client
        names = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
            names = list(pool.map(lambda _: c.start("What's my order status?").name, range(1000)))
        for name in names:
            job = c.settled(name, timeout=120)
            self.assertEqual((job.status, job.iteration), (PAUSED, 0))
        queue = adas_client.queue_key("cs-tier-1")
        # A handled delivery is acknowledged with the claimer's next claim (one
        # round trip for both), at most one blocking claim (2 s) later: wait
        # for that condition, bounded.
        deadline = time.monotonic() + 10
        while self.suite.redis.command("XLEN", queue) != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.suite.redis.command("XLEN", queue), 0, "no queue entries for paused jobs")
        pending = self.suite.redis.command("XPENDING", queue, "workers")
        self.assertEqual(pending[0], 0)
        versions = {name: c.orch.GetJob(orch_pb2.GetJobRequest(name=name)).version for name in names[:50]}
        # Workers busy after the snapshot (a sentinel job through the queue to
        # its end) still never touched a paused job: a condition, not a sleep.
        sentinel = c.start("refund ORD-1", amount=5, order_id="ORD-1")
        c.settled(sentinel.name, timeout=60)
        again = {name: c.orch.GetJob(orch_pb2.GetJobRequest(name=name)).version for name in names[:50]}
        self.assertEqual(versions, again, "nobody touches a paused job")
        waiting = int(self.suite.redis.command("ZCARD", adas_client.slag_key("cs-tier-1", "waiting")))
        self.assertGreaterEqual(waiting, 1000)


class JobsOnARedisCluster(JobsOnSeparateProcesses):
    """The same jobs on a three-primary Redis Cluster: every script stays in
    one slot, and the ready queue is sharded over the partitions' slots."""

    @classmethod
    def setUpClass(cls):
        cls.suite = adas_client.Suite(cluster=True, env=cls.PARK_NOW)
        cls.client = Client(cls.suite)


class BudgetIsNeverSpentOnWaiting(unittest.TestCase):
    def test_budget_two_and_three_answers_still_completes(self):
        suite = adas_client.Suite()
        c = Client(suite)
        try:
            registry = __import__("adas.v1.skill_registry_service_pb2_grpc", fromlist=["x"])
            registry_pb2 = __import__("adas.v1.skill_registry_service_pb2", fromlist=["x"])
            stub = registry.SkillRegistryServiceStub(c.channel(suite.registry))
            source = (
                "name: Tight budget\n"
                "problem: {statement: Answer order questions}\n"
                f"mcp_server: http://{suite.demo.address}/mcp\n"
                "intents:\n  supported:\n    - id: refund\n      examples: [I want a refund, refund please]\n"
                "tools:\n"
                "  - name: check_order_status\n    inputs:\n      - {name: order_id, type: string, required: true}\n"
                "  - name: process_refund\n    inputs:\n      - {name: order_id, type: string, required: true}\n"
                "      - {name: amount, type: number, required: true}\n      - {name: reason, type: string, required: true}\n"
                "policy:\n  workflows:\n    - name: Refund\n      trigger: refund\n      steps: [check_order_status, process_refund]\n"
                "engine:\n  max_iterations: 2\n  finalization_gate: {enabled: false}\n"
            )
            stub.PutSkill(registry_pb2.PutSkillRequest(name="skills/tight", source=source), timeout=10)
            job = c.settled(c.start("I want a refund", skill="skills/tight").name)
            self.assertEqual(job.iteration_budget, 2)
            answers = 0
            while job.status == PAUSED:
                fields = {name: (number(40) if name == "amount" else text("ORD-1" if name == "order_id" else "broken"))
                          for name in job.waiting.requested_fields}
                answers += len(fields)
                resumed = c.answer(job, **fields)
                job = c.settled(job.name, resumed.version)
            self.assertEqual(answers, 3)
            self.assertEqual((job.status, job.outcome_class, job.iteration), (COMPLETED, job_pb2.OUTCOME_CLASS_SUCCESS, 2),
                             job.error.message)
        finally:
            c.close()
            suite.stop()


class WaitTimeoutAndRepromptLimit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.suite = adas_client.Suite()
        cls.client = Client(cls.suite)
        registry = __import__("adas.v1.skill_registry_service_pb2_grpc", fromlist=["x"])
        cls.registry_pb2 = __import__("adas.v1.skill_registry_service_pb2", fromlist=["x"])
        cls.registry = registry.SkillRegistryServiceStub(cls.client.channel(cls.suite.registry))

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.suite.stop()

    def put(self, slag, engine):
        source = (
            "name: Settings\n"
            "problem: {statement: Answer order questions}\n"
            f"mcp_server: http://{self.suite.demo.address}/mcp\n"
            "intents:\n  supported:\n    - id: status\n      examples: [what is my order status, where is my order]\n"
            "tools:\n  - name: check_order_status\n    inputs:\n      - {name: order_id, type: string, required: true}\n"
            "      - {name: count, type: integer, required: true}\n"
            "policy:\n  workflows:\n    - name: Status\n      trigger: status\n      steps: [check_order_status]\n"
            f"engine:\n{engine}"
        )
        self.registry.PutSkill(self.registry_pb2.PutSkillRequest(name=f"skills/{slag}", source=source), timeout=10)

    def put_workflow(self, slag, steps, engine):
        source = (
            "name: Engine limits\n"
            "problem: {statement: Answer order questions}\n"
            f"mcp_server: http://{self.suite.demo.address}/mcp\n"
            "intents:\n  supported:\n    - id: status\n      examples: [what is my order status, where is my order]\n"
            "tools:\n  - name: check_order_status\n    inputs:\n      - {name: order_id, type: string, required: true}\n"
            f"policy:\n  workflows:\n    - name: Repeat\n      trigger: status\n      steps: [{steps}]\n"
            f"engine:\n{engine}"
        )
        self.registry.PutSkill(self.registry_pb2.PutSkillRequest(name=f"skills/{slag}", source=source), timeout=10)

    def test_the_iteration_budget_ends_a_job_that_calls_too_much(self):
        self.put_workflow("budget-one", "check_order_status, check_order_status", "  max_iterations: 1\n")
        job = self.client.start("where is my order", skill="skills/budget-one", order_id="ORD-1")
        job = self.client.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual((job.status, job.outcome_class, job.iteration), (FAILED, job_pb2.OUTCOME_CLASS_ENGINE_BUDGET_EXHAUSTED, 1))

    def test_identical_calls_trip_loop_detection(self):
        self.put_workflow("loopy", "check_order_status, check_order_status, check_order_status",
                          "  max_iterations: 10\n  loop_detection: {enabled: true, identical_call_threshold: 2}\n")
        job = self.client.start("where is my order", skill="skills/loopy", order_id="ORD-1")
        job = self.client.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual((job.status, job.outcome_class, job.iteration), (FAILED, job_pb2.OUTCOME_CLASS_ENGINE_BUDGET_EXHAUSTED, 2))
        self.assertIn("loop detected", job.error.message)

    def test_an_unanswered_ask_expires(self):
        self.put("expiring", "  wait_timeout_ms: 300\n")
        job = self.client.settled(self.client.start("where is my order", skill="skills/expiring").name)
        self.assertEqual(job.status, PAUSED)
        job = self.client.wait(job.name, lambda j: j.status != PAUSED, timeout=20)
        self.assertEqual((job.status, job.outcome_class), (FAILED, job_pb2.OUTCOME_CLASS_EXPIRED))

    def test_invalid_answers_escalate_after_the_limit(self):
        self.put("strict", "  max_invalid_answers: 2\n")
        job = self.client.settled(self.client.start("where is my order", skill="skills/strict").name)
        # Asked in the order the skill declares its inputs.
        self.assertEqual(list(job.waiting.requested_fields), ["order_id", "count"])
        for attempt in range(2):
            with self.assertRaises(grpc.RpcError) as refused:
                self.client.answer(job, order_id=text("ORD-1"), count=text("many"))
            self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        # Escalated is not a dead end: the job waits in the skill's queue for a human.
        job = self.client.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual((job.status, job.outcome_class), (PAUSED, job_pb2.OUTCOME_CLASS_ESCALATED))
        self.assertEqual((job.waiting.reason_code, list(job.waiting.requested_fields)), ("HUMAN_TAKEOVER_REQUIRED", ["reply"]))
        listed = self.client.dal.ListWaiting(dal_pb2.ListWaitingRequest(parent="skills/strict"), timeout=10)
        self.assertIn(job.name, [waiting.name for waiting in listed.jobs])
        # An operator (the dev principal holds every role) replies in the agent's place.
        self.client.answer(job, reply=text("I looked it up: ORD-1 was delivered."))
        job = self.client.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual((job.status, job.outcome_class), (COMPLETED, job_pb2.OUTCOME_CLASS_ESCALATED))
        self.assertEqual(job.result.reply, "I looked it up: ORD-1 was delivered.")


class ManyWatchers(unittest.TestCase):
    def test_four_hundred_watchers_hold_one_redis_connection(self):
        # Each WatchJob used to hold a blocking Redis connection of its own
        # (500 watchers, 508 Redis clients); now one subscription per process
        # carries every watcher, however many there are.
        suite = adas_client.Suite()
        c = Client(suite)
        channels = [grpc.insecure_channel(suite.orchestrator.address) for _ in range(4)]
        stubs = [orch_grpc.OrchestratorServiceStub(channel) for channel in channels]
        watchers = 400

        def clients():
            info = suite.redis.command("INFO", "clients")
            fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
            return int(fields["connected_clients"]), int(fields["blocked_clients"])

        try:
            job = c.settled(c.start("I want a refund for ORD-1").name)
            self.assertEqual(job.status, PAUSED)
            before, _ = clients()
            caught_up = [threading.Event() for _ in range(watchers)]

            def watch(index):
                seen = []
                stream = stubs[index % len(stubs)].WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=120)
                for event in stream:
                    seen.append(event.type)
                    if event.type == job_pb2.JOB_EVENT_TYPE_PAUSED:
                        caught_up[index].set()
                return seen

            with concurrent.futures.ThreadPoolExecutor(max_workers=watchers) as pool:
                futures = [pool.submit(watch, index) for index in range(watchers)]
                for index, event in enumerate(caught_up):
                    self.assertTrue(event.wait(60), f"watcher {index} saw the pause")
                # Every watcher now waits for the job's next event.
                peak = max(clients()[0] for _ in range(20))
                self.assertLessEqual(peak, before + 2, f"{watchers} watchers took {peak - before} Redis clients")
                c.answer(job, amount=number(40))
                for future in futures:
                    seen = future.result(timeout=60)
                    self.assertEqual(seen[-1], job_pb2.JOB_EVENT_TYPE_COMPLETED, "every watcher saw the end")
            self.assertLessEqual(clients()[0], before + 2)
        finally:
            for channel in channels:
                channel.close()
            c.close()
            suite.stop()


class FocusCacheAcrossReplicas(unittest.TestCase):
    def test_a_large_output_stored_by_one_orchestrator_is_read_by_another(self):
        # The first orchestrator runs the large call and pauses; it goes away,
        # and the other resumes the job: finalization reads the whole output
        # the first stored (it used to sit on the first one's disk).
        suite = adas_client.Suite(replicas=2)
        first, (second, second_dal) = suite.orchestrator, suite.replicas[0]
        self.assertEqual(second.stop(), 0)
        c = Client(suite)
        try:
            registry = __import__("adas.v1.skill_registry_service_pb2_grpc", fromlist=["x"])
            registry_pb2 = __import__("adas.v1.skill_registry_service_pb2", fromlist=["x"])
            stub = registry.SkillRegistryServiceStub(c.channel(suite.registry))
            stub.PutSkill(registry_pb2.PutSkillRequest(name="skills/big-orders", source=(
                f"name: Big orders\nmcp_server: http://{suite.demo.address}/mcp\n"
                "problem: {statement: Orders}\nintents: {supported: [{id: status}]}\n"
                "tools:\n  - {name: check_order_status, read_only: true, inputs: [{name: order_id, type: string, required: true}]}\n"
                "output_contract: {required_fields: [text, status]}\n"
                "engine:\n  finalization_gate: {enabled: false}\n")), timeout=10)
            big = "y" * 20000
            program = f'sys.echo(text="{big}"), check_order_status(order_id=ASK("Which order?"))'
            job = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/big-orders", program=program), timeout=10)
            job = c.settled(job.name)
            self.assertEqual((job.status, list(job.waiting.requested_fields)), (PAUSED, ["order_id"]), job.error.message)
            raw = adas_client.stored_record(suite.redis, job.slag, job.job_id)
            echoed = json.loads(job_record_pb2.JobRecord.FromString(raw).calls[0].output_json)
            self.assertIn("focus_ref", echoed, "the paused job holds a reference, not the output")
            self.assertEqual(first.stop(), 0)
            second.restart()
            c.close()
            c = Client(suite, replica=(second, second_dal))
            resumed = c.answer(job, order_id=text("ORD-1"))
            job = c.wait(job.name, lambda j: j.version > resumed.version and j.status in (COMPLETED, FAILED), timeout=60)
            self.assertEqual(job.status, COMPLETED, job.error.message)
            fields = dict(job.result.output_fields)
            self.assertTrue(fields["text"] == big, "finalization on the second read the first's artifact")
            self.assertEqual(fields["status"], "delivered")
        finally:
            c.close()
            suite.stop()


class OrchestratorCrash(unittest.TestCase):
    def test_kill_9_mid_refund_never_refunds_twice_and_hands_the_job_to_a_human(self):
        suite = adas_client.Suite(demo_delay_ms=1200, visibility_ms=1500)
        c = Client(suite)
        try:
            job = c.start("I want a refund for ORD-1", amount=300)
            finished = []
            for event in c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=60):
                if event.type == job_pb2.JOB_EVENT_TYPE_TOOL_FINISHED:
                    finished.append(event.data["tool"])
                if event.type == job_pb2.JOB_EVENT_TYPE_TOOL_STARTED and event.data["tool"] == "process_refund":
                    break
            self.assertEqual(finished, ["check_order_status"])
            # The server has the refund (its reply is 1.2 s away) when the worker dies.
            deadline = time.time() + 10
            while not any(e["tool"] == "process_refund" for e in suite.executions()) and time.time() < deadline:
                time.sleep(0.01)
            suite.orchestrator.kill()
            suite.orchestrator.restart()
            c.close()
            c = Client(suite)
            # The refund was sent before the kill: whether it took effect is
            # unknown to ADAS, and process_refund is not idempotent — a human decides.
            job = c.wait(job.name, lambda j: j.status in (PAUSED, COMPLETED, FAILED), timeout=60)
            self.assertEqual((job.status, job.outcome_class, job.waiting.reason_code),
                             (PAUSED, job_pb2.OUTCOME_CLASS_ESCALATED, "HUMAN_TAKEOVER_REQUIRED"), job.error.message)
            self.assertIn("process_refund", job.waiting.prompt_message)
            self.assertIn("not run again", job.waiting.prompt_message)
            refunds = [e for e in suite.executions() if e["tool"] == "process_refund"]
            self.assertEqual(len(refunds), 1, "the refund was executed once")
            self.assertIn(refunds[0]["key"], job.waiting.prompt_message, "the evidence names the call's key")
            checks = [e for e in suite.executions() if e["tool"] == "check_order_status"]
            self.assertEqual(len(checks), 1, "the finished call was not repeated")
            # The operator checks the ledger and answers for the agent.
            c.answer(job, reply=text("Your refund of 300 on ORD-1 went through."))
            job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED), timeout=30)
            self.assertEqual(job.status, COMPLETED, job.error.message)
            self.assertEqual(job.result.reply, "Your refund of 300 on ORD-1 went through.")
        finally:
            c.close()
            suite.stop()


class OneWorkerPerJob(unittest.TestCase):
    def test_a_call_three_times_longer_than_the_visibility_timeout_runs_once(self):
        # Two orchestrators side by side; each tool call takes 4.5 s, three
        # times the 1.5 s visibility timeout: the worker renews its claim while
        # the call runs, so the other never takes the job over.
        suite = adas_client.Suite(demo_delay_ms=4500, visibility_ms=1500, replicas=2)
        c = Client(suite)
        try:
            job = c.start("I want a refund for ORD-1", amount=300)
            kinds = []
            for event in c.orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=90):
                kinds.append(event.type)
                if event.type in (job_pb2.JOB_EVENT_TYPE_COMPLETED, job_pb2.JOB_EVENT_TYPE_FAILED):
                    break
            job = c.orch.GetJob(orch_pb2.GetJobRequest(name=job.name), timeout=10)
            self.assertEqual((job.status, job.outcome_class), (COMPLETED, job_pb2.OUTCOME_CLASS_SUCCESS),
                             f"{job.error.message} {job.waiting.prompt_message}")
            self.assertNotIn(job_pb2.JOB_EVENT_TYPE_RECLAIMED, kinds, "nobody took the job over")
            self.assertEqual(kinds.count(job_pb2.JOB_EVENT_TYPE_RUNNING), 1, "one worker took it")
            executed = [e["tool"] for e in suite.executions()]
            self.assertEqual(executed, ["check_order_status", "process_refund"], "each call ran once")
        finally:
            c.close()
            suite.stop()


class Retention(unittest.TestCase):
    def test_finished_jobs_past_the_retention_leave_the_store_and_the_disk(self):
        suite = adas_client.Suite(env={"ADAS_JOB_RETENTION_MS": "2000"})
        c = Client(suite)
        try:
            done = c.start("What's my order status?", order_id="ORD-1")
            done = c.wait(done.name, lambda j: j.status == COMPLETED)
            paused = c.settled(c.start("I want a refund").name)
            self.assertEqual(paused.status, PAUSED)
            key = adas_client.slag_key(done.slag, f"job:{done.job_id}")
            events = adas_client.slag_key(done.slag, f"log:{done.job_id}")
            archive, _ = archived(suite.memory_root, done.slag, done.job_id)
            self.assertIsNotNone(archive, "archived first")
            # Swept within a few sweeps (every second) once 2 s old.
            deadline = time.monotonic() + 60
            while suite.redis.command("EXISTS", key) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertEqual(suite.redis.command("EXISTS", key), 0, "the record is gone")
            self.assertEqual(suite.redis.command("EXISTS", events), 0, "its events with it")
            with self.assertRaises(grpc.RpcError) as gone:
                c.orch.GetJob(orch_pb2.GetJobRequest(name=done.name), timeout=10)
            self.assertEqual(gone.exception.code(), grpc.StatusCode.NOT_FOUND)
            listed = c.orch.ListJobs(orch_pb2.ListJobsRequest(parent="skills/cs-tier-1"), timeout=10)
            self.assertNotIn(done.name, [job.name for job in listed.jobs])
            while os.path.exists(archive) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertFalse(os.path.exists(archive), "the local archive is bounded too")
            # A job still waiting is never swept, however old.
            self.assertEqual(c.orch.GetJob(orch_pb2.GetJobRequest(name=paused.name), timeout=10).status, PAUSED)
        finally:
            c.close()
            suite.stop()


SHOP_SKILL = """name: Shop refunds
problem: {statement: Refund a customer's order}
mcp_server: "${ADAS_DEMO_MCP_URL}"
intents:
  supported:
    - id: intent_refund
      description: Customer wants a refund for an order
      examples: ["I'd like a refund for order ORD-12345", "Refund my order please"]
  out_of_domain: {action: redirect, message: I can only help with refunds}
tools:
  - name: check_order_status
    inputs: [{name: order_id, type: string, required: true}]
  - name: process_refund
    inputs: [{name: order_id, type: string, required: true}, {name: amount, type: number, required: true}]
policy:
  workflows:
    - {name: Refund, trigger: intent_refund, steps: [check_order_status, process_refund], required: true}
required_inputs: [{path: amount, prompt: How much should be refunded?}]
"""


class SkillsWithoutASharedDisk(unittest.TestCase):
    """The Helm chart's shape: every service on its own disk, one Redis. A skill put on
    the registry is the skill every other process runs (the remote step engine
    makes Intent, DalAgent and the gate each read it from their own catalog)."""

    @classmethod
    def setUpClass(cls):
        cls.suite = adas_client.Suite(step_engine="remote")
        cls.client = Client(cls.suite)
        cls.registry_pb2 = __import__("adas.v1.skill_registry_service_pb2", fromlist=["x"])
        registry_grpc = __import__("adas.v1.skill_registry_service_pb2_grpc", fromlist=["x"])
        cls.registry = registry_grpc.SkillRegistryServiceStub(cls.client.channel(cls.suite.registry))
        cls.registry_grpc = registry_grpc

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.suite.stop()

    def test_a_skill_put_on_the_registry_runs_everywhere(self):
        put = self.registry.PutSkill(self.registry_pb2.PutSkillRequest(name="skills/shop", source=SHOP_SKILL),
                                     timeout=10)
        c = self.client
        job = c.orch.StartJob(orch_pb2.StartJobRequest(skill="skills/shop", goal="I'd like a refund for order ORD-12345"),
                              timeout=10)
        job = c.settled(job.name)
        self.assertEqual(job.status, PAUSED, f"{job.outcome_class} {job.error.message} {job.result.reply}")
        self.assertEqual(job.intent.intent_id, "intent_refund", "the put skill, not a skill of the service's own")
        self.assertEqual(list(job.waiting.requested_fields), ["amount"])
        resumed = c.answer(job, amount=number(25))
        job = c.wait(job.name, lambda j: j.status in (COMPLETED, FAILED))
        self.assertEqual((job.status, job.outcome_class), (COMPLETED, job_pb2.OUTCOME_CLASS_SUCCESS), job.error.message)
        self.assertEqual([call.tool for call in job.result.tool_calls], ["check_order_status", "process_refund"])
        self.assertGreater(job.version, resumed.version)
        # The orchestrator's disk holds an export, not the source of truth.
        exported = os.path.join(self.suite.orchestrator.memory_root, "shop", "skill.yaml")
        self.assertTrue(os.path.exists(exported))

        # A second registry replica on a disk of its own serves the same version,
        # and a write through it is what the first serves next.
        replica = adas_client.Service("adas-skill-registry", env={"ADAS_REDIS_URL": self.suite.redis.url,
                                                                  "ADAS_DEMO_MCP_URL": f"http://{self.suite.demo.address}/mcp"})
        try:
            other = self.registry_grpc.SkillRegistryServiceStub(c.channel(replica))
            seen = other.GetSkill(self.registry_pb2.GetSkillRequest(name="skills/shop"), timeout=10)
            self.assertEqual(seen.etag, put.etag)
            updated = other.PutSkill(self.registry_pb2.PutSkillRequest(
                name="skills/shop", source=SHOP_SKILL.replace("Shop refunds", "Shop refunds v2"), etag=put.etag),
                timeout=10)
            self.assertNotEqual(updated.etag, put.etag)
            self.assertEqual(self.registry.GetSkill(self.registry_pb2.GetSkillRequest(name="skills/shop"),
                                                    timeout=10).etag, updated.etag)
            with self.assertRaises(grpc.RpcError) as caught:
                self.registry.PutSkill(self.registry_pb2.PutSkillRequest(
                    name="skills/shop", source=SHOP_SKILL, etag=put.etag), timeout=10)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.ABORTED, "a stale etag loses, on any replica")
            names = [skill.name for skill in other.ListSkills(self.registry_pb2.ListSkillsRequest(), timeout=10).skills]
            self.assertIn("skills/shop", names)
        finally:
            self.assertEqual(replica.stop(), 0)


class PeersThatBlink(unittest.TestCase):
    """A peer killed with -9 and restarted at once fails no job: the worker
    retries a transient failure with backoff (and leaves the job to be
    reclaimed past it); only a deterministic failure ends a job."""

    def test_kill_9_and_restart_of_each_peer_fails_no_job(self):
        suite = adas_client.Suite(demo_delay_ms=150, step_engine="remote")
        c = Client(suite)
        try:
            jobs = [c.start("I want a refund for ORD-1", amount=30).name for _ in range(10)]
            for peer in (suite.dal, suite.intent, suite.gate):
                peer.kill()
                peer.restart(same_address=True)
            for name in jobs:
                job = c.wait(name, lambda j: j.status in (COMPLETED, FAILED, CANCELLED), timeout=90)
                self.assertEqual((job.status, job.error.message), (COMPLETED, ""), name)
                self.assertEqual([call.tool for call in job.result.tool_calls],
                                 ["check_order_status", "process_refund"])
        finally:
            c.close()
            suite.stop()


if __name__ == "__main__":
    unittest.main()
