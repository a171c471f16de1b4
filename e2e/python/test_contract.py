"""A Python client generated from proto/ with grpcio-tools talks to the real
binaries: health, and every service's RPCs answering with exactly the status the
contract gives the request — never UNIMPLEMENTED, never a transport error."""

import unittest

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

import adas_client

adas_client.generate_client()

from adas.v1 import (  # noqa: E402  (generated above)
    dal_agent_service_pb2,
    dal_agent_service_pb2_grpc,
    gate_service_pb2,
    gate_service_pb2_grpc,
    intent_service_pb2,
    intent_service_pb2_grpc,
    job_pb2,
    orchestrator_service_pb2,
    orchestrator_service_pb2_grpc,
    skill_pb2,
    skill_registry_service_pb2,
    skill_registry_service_pb2_grpc,
)


def call_code(call, request) -> grpc.StatusCode:
    try:
        call(request, timeout=10)
        return grpc.StatusCode.OK
    except grpc.RpcError as error:  # a status from the server, not a transport failure
        return error.code()


class ContractOverAllInOne(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = adas_client.Service("adas", "up", "--demo-mcp-listen", "127.0.0.1:0")
        cls.channel = grpc.insecure_channel(cls.service.address)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        exit_code = cls.service.stop()
        if exit_code != 0:
            raise AssertionError(f"adas up exited with {exit_code} after SIGTERM")

    def test_health_reports_every_service_serving(self):
        health = health_pb2_grpc.HealthStub(self.channel)
        for name in ["adas.v1.SkillRegistryService", "adas.v1.IntentService", "adas.v1.OrchestratorService",
                     "adas.v1.GateService", "adas.v1.DalAgentService", ""]:
            response = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=10)
            self.assertEqual(response.status, health_pb2.HealthCheckResponse.SERVING, name)

    def test_every_service_answers_with_a_grpc_status(self):
        ok, invalid, not_found = grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND
        registry = skill_registry_service_pb2_grpc.SkillRegistryServiceStub(self.channel)
        intent = intent_service_pb2_grpc.IntentServiceStub(self.channel)
        orchestrator = orchestrator_service_pb2_grpc.OrchestratorServiceStub(self.channel)
        gate = gate_service_pb2_grpc.GateServiceStub(self.channel)
        dal = dal_agent_service_pb2_grpc.DalAgentServiceStub(self.channel)
        calls = [
            (registry.GetSkill, skill_registry_service_pb2.GetSkillRequest(name="skills/cs-tier-1"), ok),
            (registry.GetSkill, skill_registry_service_pb2.GetSkillRequest(name="skills/cs-teir-1"), not_found),
            (registry.GetSkill, skill_registry_service_pb2.GetSkillRequest(name="skills/CS-Tier-1"), invalid),
            (registry.PutSkill, skill_registry_service_pb2.PutSkillRequest(name="", source="name: x\n"), invalid),
            (registry.DeleteSkill, skill_registry_service_pb2.DeleteSkillRequest(name="skills/nothing-here"),
             not_found),
            (intent.ParsePlan, intent_service_pb2.ParsePlanRequest(program="retrieve_screw(count=3)"), ok),
            (orchestrator.StartJob,
             orchestrator_service_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="refund ORD-1", request_id="py-1"),
             ok),
            (orchestrator.StartJob,
             orchestrator_service_pb2.StartJobRequest(skill="skills/no-such-skill", goal="hello"), not_found),
            (gate.Finalize, gate_service_pb2.FinalizeRequest(skill="skills/cs-tier-1", draft_reply="done"), ok),
            (dal.ListWaiting, dal_agent_service_pb2.ListWaitingRequest(parent="skills/cs-tier-1", page_size=10), ok),
        ]
        for call, request, expected in calls:
            code = call_code(call, request)
            self.assertEqual(code, expected, f"{type(request).__name__} {request}")

    def test_an_undecodable_request_is_invalid_argument(self):
        # Field 1 of GetJobRequest is a string; a varint there does not decode.
        for path in ("/adas.v1.OrchestratorService/GetJob", "/adas.v1.SkillRegistryService/GetSkill"):
            call = self.channel.unary_unary(path, request_serializer=None, response_deserializer=None)
            with self.assertRaises(grpc.RpcError) as refused:
                call(b"\x08\x01", timeout=10)
            self.assertEqual(refused.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, path)

    def test_resolve_tools_merges_core_and_demo_mcp_tools(self):
        stub = skill_registry_service_pb2_grpc.SkillRegistryServiceStub(self.channel)
        response = stub.ResolveTools(skill_registry_service_pb2.ResolveToolsRequest(skill="skills/cs-tier-1"), timeout=20)
        by_name = {tool.name: tool for tool in response.tools}
        self.assertFalse(response.stale)
        for name in ["sys.echo", "sys.emitUserMessage", "sys.escalate", "check_order_status", "process_refund"]:
            self.assertIn(name, by_name)
        refund = by_name["process_refund"]
        self.assertEqual([(i.name, i.type, i.required) for i in refund.inputs], [("amount", "number", True), ("order_id", "string", True)])
        self.assertTrue(refund.source.uri.endswith("/mcp"))
        # What the skill declares is available; what the server offers beyond it
        # is listed apart and never called.
        undeclared, never = skill_pb2.TOOL_AVAILABILITY_UNDECLARED, skill_pb2.TOOL_AVAILABILITY_NEVER_ALLOWED
        for tool in response.tools:
            self.assertTrue(tool.available or tool.availability in (undeclared, never), tool.name)
        self.assertEqual(by_name["delete_customer_record"].availability, never)
        self.assertEqual(by_name["restart_service"].availability, undeclared)
        # Callable, but each call above the threshold waits for an approver: said so.
        self.assertEqual(by_name["process_refund"].availability, skill_pb2.TOOL_AVAILABILITY_NEEDS_APPROVAL)
        self.assertTrue(by_name["process_refund"].available)
        self.assertEqual(by_name["check_order_status"].availability, skill_pb2.TOOL_AVAILABILITY_AVAILABLE)

        # ValidateSkill is a check, never an action: it contacts no server (what a
        # server serves shows in ResolveTools); the egress rule is judged from the text.
        source = ("name: x\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\n"
                  "mcp_server: ${ADAS_DEMO_MCP_URL}\ntools:\n  - name: check_order_status\n"
                  "  - name: teleport_parcel\n")
        validated = stub.ValidateSkill(skill_registry_service_pb2.ValidateSkillRequest(source=source), timeout=20)
        self.assertTrue(validated.valid, validated.diagnostics)
        denied = source.replace("${ADAS_DEMO_MCP_URL}", "stdio:touch /tmp/adas-pwned")
        validated = stub.ValidateSkill(skill_registry_service_pb2.ValidateSkillRequest(source=denied), timeout=20)
        self.assertFalse(validated.valid)
        self.assertEqual([(d.code, d.path, d.line) for d in validated.diagnostics if d.severity == 1],
                         [("egress_denied", "mcp_server", 4)])

        # A preset library is not a skill; an unknown variable is an error at its place.
        fragment = "name: presets\nmcp_server: ${NO_SUCH_URL}\npolicy: {guardrails: {never: [x]}}\n"
        validated = stub.ValidateSkill(skill_registry_service_pb2.ValidateSkillRequest(source=fragment), timeout=20)
        self.assertFalse(validated.valid)
        self.assertEqual([(d.code, d.line, d.column) for d in validated.diagnostics],
                         [("unknown_variable", 2, 13)])

    def test_gzip_requests_and_answers_on_every_service(self):
        # A client that compresses its requests (and offers gzip for answers) is
        # served by every service, never UNIMPLEMENTED; the answer arrives intact.
        with grpc.insecure_channel(self.service.address, compression=grpc.Compression.Gzip) as channel:
            registry = skill_registry_service_pb2_grpc.SkillRegistryServiceStub(channel)
            skill = registry.GetSkill(skill_registry_service_pb2.GetSkillRequest(name="skills/cs-tier-1"), timeout=10)
            self.assertIn("process_refund", skill.source)
            plan = intent_service_pb2_grpc.IntentServiceStub(channel).ParsePlan(
                intent_service_pb2.ParsePlanRequest(program="retrieve_screw(count=3)"), timeout=10)
            self.assertEqual(plan.canonical, "retrieve_screw(count=3)")
            orchestrator = orchestrator_service_pb2_grpc.OrchestratorServiceStub(channel)
            self.assertEqual(call_code(orchestrator.GetJob, orchestrator_service_pb2.GetJobRequest(
                name="skills/cs-tier-1/jobs/unknown")), grpc.StatusCode.NOT_FOUND)
            gate = gate_service_pb2_grpc.GateServiceStub(channel)
            self.assertEqual(call_code(gate.Finalize, gate_service_pb2.FinalizeRequest(
                skill="skills/cs-tier-1", draft_reply="done")), grpc.StatusCode.OK)
            dal = dal_agent_service_pb2_grpc.DalAgentServiceStub(channel)
            self.assertEqual(call_code(dal.ListWaiting, dal_agent_service_pb2.ListWaitingRequest(
                parent="skills/cs-tier-1", page_size=10)), grpc.StatusCode.OK)

    def test_waiting_contract_keys_are_in_the_generated_client(self):
        # The six keys of spec 000 are fields of Waiting, by these exact names.
        names = [field.name for field in job_pb2.Waiting.DESCRIPTOR.fields][:6]
        self.assertEqual(names, ["reason_code", "requested_fields", "prompt_message", "correlation_id",
                                 "created_at", "last_prompt_at"])


class ContractOverSeparateBinaries(unittest.TestCase):
    def test_skill_registry_and_orchestrator_binaries(self):
        for binary, stub, method, request, expected in [
            ("adas-skill-registry", skill_registry_service_pb2_grpc.SkillRegistryServiceStub, "ListSkills",
             skill_registry_service_pb2.ListSkillsRequest(page_size=10), grpc.StatusCode.OK),
            ("adas-orchestrator", orchestrator_service_pb2_grpc.OrchestratorServiceStub, "GetJob",
             orchestrator_service_pb2.GetJobRequest(name="skills/cs-tier-1/jobs/unknown"), grpc.StatusCode.NOT_FOUND),
        ]:
            service = adas_client.Service(binary)
            try:
                with grpc.insecure_channel(service.address) as channel:
                    health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
                    self.assertEqual(health.status, health_pb2.HealthCheckResponse.SERVING)
                    code = call_code(getattr(stub(channel), method), request)
                    self.assertEqual(code, expected, f"{binary} {method}")
            finally:
                self.assertEqual(service.stop(), 0, binary)


if __name__ == "__main__":
    unittest.main()
