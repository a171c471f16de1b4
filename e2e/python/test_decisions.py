"""IntentService and GateService from the generated Python client against `adas up`
(issue 6): intents and out-of-domain, plans, the pre-tool gate with approvals bound
to the exact call, finalization."""

import time
import unittest

import grpc
from google.protobuf import struct_pb2

import adas_client

adas_client.generate_client()

from adas.v1 import (  # noqa: E402  (generated above)
    gate_pb2,
    gate_service_pb2,
    gate_service_pb2_grpc,
    intent_service_pb2,
    intent_service_pb2_grpc,
    job_pb2,
    orchestrator_service_pb2,
    orchestrator_service_pb2_grpc,
    skill_registry_service_pb2,
    skill_registry_service_pb2_grpc,
)


def struct(**fields) -> struct_pb2.Struct:
    value = struct_pb2.Struct()
    value.update(fields)
    return value


class Decisions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = adas_client.Service("adas", "up", "--demo-mcp-listen", "127.0.0.1:0")
        cls.channel = grpc.insecure_channel(cls.service.address)
        cls.intent = intent_service_pb2_grpc.IntentServiceStub(cls.channel)
        cls.gate = gate_service_pb2_grpc.GateServiceStub(cls.channel)
        cls.orch = orchestrator_service_pb2_grpc.OrchestratorServiceStub(cls.channel)
        cls.registry = skill_registry_service_pb2_grpc.SkillRegistryServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        if cls.service.stop() != 0:
            raise AssertionError("adas up did not exit 0 after SIGTERM")

    def check(self, tool, job="", **arguments):
        return self.gate.CheckToolCall(gate_service_pb2.CheckToolCallRequest(
            skill="skills/cs-tier-1", job=job, tool=tool, arguments=struct(**arguments)), timeout=10)

    def settle(self, name):
        for _ in range(500):
            job = self.orch.GetJob(orchestrator_service_pb2.GetJobRequest(name=name), timeout=10)
            if job.status not in (job_pb2.JOB_STATUS_QUEUED, job_pb2.JOB_STATUS_RUNNING):
                return job
            time.sleep(0.02)
        raise AssertionError(f"job {name} did not settle")

    def events(self, name):
        return list(self.orch.WatchJob(orchestrator_service_pb2.WatchJobRequest(name=name), timeout=10))

    def held_refund(self, amount):
        job = self.orch.StartJob(orchestrator_service_pb2.StartJobRequest(
            skill="skills/cs-tier-1", program=f'process_refund(order_id="ORD-2", amount={amount})'), timeout=10)
        job = self.settle(job.name)
        self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
        return job

    def test_a_rejection_keeps_its_reason_and_a_huge_reason_is_refused(self):
        job = self.held_refund(640)
        # A reason past 4 KiB is refused whole: nothing decided, nothing stored.
        with self.assertRaises(grpc.RpcError) as huge:
            self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
                job=job.name, correlation_id=job.waiting.correlation_id,
                decision=gate_pb2.APPROVAL_DECISION_REJECT, comment="x" * 5000), timeout=10)
        self.assertEqual(huge.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("comment", huge.exception.details())
        still = self.orch.GetJob(orchestrator_service_pb2.GetJobRequest(name=job.name), timeout=10)
        self.assertEqual((still.status, list(still.decisions)), (job_pb2.JOB_STATUS_PAUSED, []))

        self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=job.waiting.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_REJECT, comment="amount over the order total"), timeout=10)
        failed = self.settle(job.name)
        self.assertEqual(failed.status, job_pb2.JOB_STATUS_FAILED)
        self.assertEqual([(d.decision, d.comment) for d in failed.decisions],
                         [(gate_pb2.APPROVAL_DECISION_REJECT, "amount over the order total")])
        self.assertIn("rejected by dev: amount over the order total", failed.error.message)
        ended = [event for event in self.events(job.name) if event.type == job_pb2.JOB_EVENT_TYPE_FAILED]
        self.assertEqual([(event.data["comment"], event.data["tool"]) for event in ended],
                         [("amount over the order total", "process_refund")])

    def test_intent_entities_and_out_of_domain(self):
        detected = self.intent.DetectIntent(intent_service_pb2.DetectIntentRequest(
            skill="skills/cs-tier-1", message="Where is my order ORD-12345?"), timeout=10)
        self.assertEqual(detected.intent_id, "intent_order_status")
        self.assertEqual([(e.name, e.value.string_value) for e in detected.entities], [("order_id", "ORD-12345")])

        weather = self.intent.DetectIntent(intent_service_pb2.DetectIntentRequest(
            skill="skills/cs-tier-1", message="what's the weather"), timeout=10)
        self.assertEqual(weather.intent_id, "")
        self.assertEqual(weather.out_of_domain.action, "redirect")
        self.assertEqual(weather.out_of_domain.message, "I can only help with orders and refunds")

    def test_plans_are_valid_dia(self):
        planned = self.intent.Plan(intent_service_pb2.PlanRequest(
            skill="skills/cs-tier-1", message="I want a refund for ORD-1", context=struct(amount=300)), timeout=10)
        self.assertEqual(planned.program,
                         'check_order_status(order_id="ORD-1"), process_refund(order_id="ORD-1", amount=300)')
        self.assertEqual(planned.workflow, "Refund Processing")
        parsed = self.intent.ParsePlan(intent_service_pb2.ParsePlanRequest(program=planned.program), timeout=10)
        self.assertEqual(list(parsed.errors), [])
        self.assertEqual(parsed.canonical, planned.program)

        broken = self.intent.ParsePlan(intent_service_pb2.ParsePlanRequest(program='f(x=1,\n  y="open'), timeout=10)
        self.assertEqual([(e.line, e.column) for e in broken.errors], [(2, 5)])

    def test_refund_gate_boundaries_and_approvals(self):
        ALLOW, DENY, APPROVAL = (gate_pb2.GATE_VERDICT_ALLOW, gate_pb2.GATE_VERDICT_DENY,
                                 gate_pb2.GATE_VERDICT_REQUIRE_APPROVAL)
        for amount in (300, 499, 500):
            allowed = self.check("process_refund", order_id="ORD-1", amount=amount)
            # No rule applies under the threshold: the decision says so with a
            # real kind (never UNSPECIFIED on the wire).
            self.assertEqual((allowed.verdict, allowed.rule_kind), (ALLOW, gate_pb2.GATE_RULE_KIND_NO_RULE), amount)
        # Approvals belong to jobs: one held at the gate for a 501 refund.
        job = self.orch.StartJob(orchestrator_service_pb2.StartJobRequest(
            skill="skills/cs-tier-1", program='process_refund(order_id="ORD-1", amount=501)'), timeout=10)
        job = self.settle(job.name)
        self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
        held = self.check("process_refund", job.name, order_id="ORD-1", amount=501)
        self.assertEqual((held.verdict, held.approver, held.condition), (APPROVAL, "supervisor", "amount > 500"))
        self.assertEqual(held.correlation_id, job.waiting.correlation_id)
        self.assertTrue(held.correlation_id.startswith("apr-"))

        # Who decides is the authenticated principal (here dev mode's `dev`); role
        # spoofing and self-approval are refused in e2e/tests/security.rs.
        record = self.gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
            job=job.name, correlation_id=held.correlation_id,
            decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="verified"), timeout=10)
        self.assertEqual((record.decided_by, record.tool, record.call_digest),
                         ("dev", "process_refund", held.call_digest))
        self.assertGreater(record.decide_time.seconds, 0)
        done = self.settle(job.name)
        self.assertEqual(done.status, job_pb2.JOB_STATUS_COMPLETED)
        # The decision and its reason stay with the job: its approval trail,
        # and the event that resumed it.
        self.assertEqual([(d.decision, d.approver, d.role, d.tool, d.call_digest, d.comment)
                          for d in done.decisions],
                         [(gate_pb2.APPROVAL_DECISION_APPROVE, "dev", "supervisor", "process_refund",
                           held.call_digest, "verified")])
        self.assertEqual(done.decisions[0].correlation_id, held.correlation_id)
        self.assertGreater(done.decisions[0].decide_time.seconds, 0)
        resumed = [event for event in self.events(job.name) if event.type == job_pb2.JOB_EVENT_TYPE_RESUMED]
        self.assertEqual([(event.message, event.data["comment"], event.data["approver"]) for event in resumed],
                         [("approved by dev: verified", "verified", "dev")])

        # The approval paid for that one execution: the same call again needs its own.
        again = self.check("process_refund", job.name, order_id="ORD-1", amount=501)
        self.assertEqual(again.verdict, APPROVAL)
        self.assertNotEqual(again.correlation_id, held.correlation_id)
        self.assertEqual(self.check("process_refund", job.name, order_id="ORD-1", amount=502).verdict, APPROVAL)
        # A job that does not exist has no approvals.
        with self.assertRaises(grpc.RpcError) as missing:
            self.check("process_refund", "skills/cs-tier-1/jobs/py-job-1", order_id="ORD-1", amount=501)
        self.assertEqual(missing.exception.code(), grpc.StatusCode.NOT_FOUND)

        denied = self.check("delete_customer_record", customer_id="c-1")
        self.assertEqual(denied.verdict, DENY)
        self.assertIn("not allowed", denied.rule)

    def test_finalize_missing_present_and_disabled(self):
        missing = self.gate.Finalize(gate_service_pb2.FinalizeRequest(
            skill="skills/cs-tier-1", draft_reply="On its way", results=struct(order_id="ORD-1"),
            intent_id="intent_order_status", succeeded_tools=["check_order_status"]), timeout=10)
        self.assertFalse(missing.passed)
        self.assertEqual(list(missing.missing_fields), ["status", "next_steps"])
        self.assertEqual({r.code for r in missing.reasons}, {gate_pb2.FINALIZATION_REASON_CODE_MISSING_REQUIRED_FIELD})

        present = self.gate.Finalize(gate_service_pb2.FinalizeRequest(
            skill="skills/cs-tier-1", results=struct(order_id="ORD-1", status="shipped", next_steps="Track it"),
            intent_id="intent_order_status", succeeded_tools=["check_order_status"]), timeout=10)
        self.assertTrue(present.passed)

        self.registry.PutSkill(skill_registry_service_pb2.PutSkillRequest(
            name="skills/fast-skill",
            source="name: Fast\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\ntools: []\noutput_contract:\n  required_fields: [x]\nengine: fast\n"), timeout=10)
        skipped = self.gate.Finalize(gate_service_pb2.FinalizeRequest(skill="skills/fast-skill"), timeout=10)
        self.assertTrue(skipped.passed and skipped.skipped)

        polished = self.gate.PolishReply(gate_service_pb2.PolishReplyRequest(
            skill="skills/cs-tier-1", reply="Here is your order.", results=struct(status="shipped"),
            user_waited=True), timeout=10)
        self.assertEqual(polished.text, "Thanks for your patience!\nHere is your order.\n- Status: shipped")
        # Nobody waited: the opener fits the turn.
        quick = self.gate.PolishReply(gate_service_pb2.PolishReplyRequest(
            skill="skills/cs-tier-1", reply="Here is your order.", results=struct(status="shipped")), timeout=10)
        self.assertEqual(quick.text, "Happy to help!\nHere is your order.\n- Status: shipped")


if __name__ == "__main__":
    unittest.main()
