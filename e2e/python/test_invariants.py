"""The invariant checker (adas_client.invariant_violations) that runs after every
e2e and chaos suite: fed event logs and executions that break each promise, it
must name the break — a checker that cannot fail proves nothing."""

import json
import unittest

import adas_client

adas_client.generate_client()

from adas.storage.v1 import job_record_pb2 as storage  # noqa: E402

K = storage.EventKind


def event(kind, data=None):
    return storage.JobEvent(kind=kind, data_json=json.dumps(data).encode() if data is not None else b"")


def started(tool, arguments, key, gate_arguments=None, rule_kind="GATE_RULE_KIND_NO_RULE", verdict="allow"):
    digest = adas_client.call_digest(tool, gate_arguments if gate_arguments is not None else arguments)
    return event(K.EVENT_KIND_TOOL_STARTED, {
        "tool": tool, "arguments": arguments, "idempotency_key": key,
        "gate": {"verdict": verdict, "rule_kind": rule_kind, "call_digest": digest}})


def approved(tool, arguments, who="sam", role="supervisor"):
    return event(K.EVENT_KIND_RESUMED, {"approver": who, "role": role, "tool": tool,
                                        "call_digest": adas_client.call_digest(tool, arguments)})


REFUND = {"order_id": "ORD-1", "amount": 700}


class InvariantChecker(unittest.TestCase):
    def check(self, events, executions):
        return adas_client.invariant_violations({"job": events}, executions)

    def test_a_clean_run_has_no_violation(self):
        events = [event(K.EVENT_KIND_RUNNING), event(K.EVENT_KIND_PAUSED, {"reason_code": "APPROVAL_REQUIRED"}),
                  approved("process_refund", REFUND), event(K.EVENT_KIND_RUNNING),
                  started("process_refund", REFUND, "k1", rule_kind="GATE_RULE_KIND_APPROVAL_GRANTED"),
                  event(K.EVENT_KIND_TOOL_FINISHED), event(K.EVENT_KIND_COMPLETED)]
        self.assertEqual(self.check(events, [{"key": "k1", "tool": "process_refund", "arguments": REFUND}]), [])

    def test_a_call_without_a_gate_allow(self):
        events = [started("check_order_status", {"order_id": "ORD-1"}, "k1", verdict="deny")]
        self.assertIn("without a gate ALLOW", " ".join(self.check(events, [])))

    def test_arguments_other_than_those_gated(self):
        events = [started("process_refund", {"order_id": "ORD-1", "amount": 30}, "k1",
                          gate_arguments={"order_id": "ORD-1", "amount": 3})]
        self.assertIn("other than the gate allowed", " ".join(self.check(events, [])))

    def test_an_execution_that_differs_from_the_started_call(self):
        events = [started("process_refund", {"order_id": "ORD-1", "amount": 30}, "k1")]
        executions = [{"key": "k1", "tool": "process_refund", "arguments": {"order_id": "ORD-1", "amount": 3000}}]
        self.assertIn("without a matching tool_started", " ".join(self.check(events, executions)))

    def test_a_refund_over_500_without_approval(self):
        events = [started("process_refund", REFUND, "k1")]
        self.assertIn("without the approval of a supervisor", " ".join(self.check(events, [])))

    def test_an_approval_by_the_wrong_role_or_of_another_call(self):
        wrong_role = [approved("process_refund", REFUND, role="agent"),
                      started("process_refund", REFUND, "k1", rule_kind="GATE_RULE_KIND_APPROVAL_GRANTED")]
        self.assertIn("without the approval", " ".join(self.check(wrong_role, [])))
        other_call = [approved("process_refund", {"order_id": "ORD-1", "amount": 600}),
                      started("process_refund", REFUND, "k1", rule_kind="GATE_RULE_KIND_APPROVAL_GRANTED")]
        self.assertIn("without the approval", " ".join(self.check(other_call, [])))

    def test_a_side_effect_twice_or_without_a_key(self):
        events = [started("process_refund", {"order_id": "ORD-1", "amount": 30}, "k1")]
        execution = {"key": "k1", "tool": "process_refund", "arguments": {"order_id": "ORD-1", "amount": 30}}
        self.assertIn("executed twice", " ".join(self.check(events, [execution, execution])))
        self.assertIn("without an idempotency key", " ".join(self.check(events, [{**execution, "key": ""}])))

    def test_a_step_while_paused(self):
        events = [event(K.EVENT_KIND_PAUSED, {"reason_code": "MISSING_REQUIRED_INPUT"}),
                  event(K.EVENT_KIND_RUNNING)]
        self.assertIn("EVENT_KIND_RUNNING while paused", " ".join(self.check(events, [])))


if __name__ == "__main__":
    unittest.main()
