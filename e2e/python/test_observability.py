"""Traces and metrics as an operator sees them (issue 19): one job is one trace
across the five separate binaries, exported over OTLP/HTTP to a collector the
test runs itself; the metrics page parses with Prometheus' own parser, with
labels and histograms, and answers 404 off its path."""

import http.server
import json
import os
import re
import secrets
import textwrap
import threading
import time
import unittest
import urllib.error
import urllib.request

import grpc
import yaml
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from prometheus_client.parser import text_string_to_metric_families

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
    skill_registry_service_pb2 as registry_pb2,
    skill_registry_service_pb2_grpc as registry_grpc,
)
from google.protobuf import struct_pb2  # noqa: E402

PAUSED, COMPLETED = job_pb2.JOB_STATUS_PAUSED, job_pb2.JOB_STATUS_COMPLETED
SERVICES = {"adas-skill-registry", "adas-intent", "adas-orchestrator", "adas-gate", "adas-dal-agent"}


class Collector:
    """An OTLP/HTTP trace receiver (protobuf): every span it was sent, with
    its process' service.name."""

    def __init__(self):
        self.spans = []
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                request = trace_service_pb2.ExportTraceServiceRequest.FromString(body)
                for resource_spans in request.resource_spans:
                    service = next(attribute.value.string_value for attribute in resource_spans.resource.attributes
                                   if attribute.key == "service.name")
                    for scope in resource_spans.scope_spans:
                        collector.spans.extend((service, span) for span in scope.spans)
                reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def settle(orch, name, predicate, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        job = orch.GetJob(orch_pb2.GetJobRequest(name=name), timeout=10)
        if predicate(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"{name}: last status {job.status}")


class OneTraceAcrossFiveBinaries(unittest.TestCase):
    def test_a_job_is_one_trace_with_a_connected_parent_chain(self):
        collector = Collector()
        # Steps through the services (not in the worker's process), so the
        # job's path crosses every binary.
        suite = adas_client.Suite(step_engine="remote", env={"ADAS_OTLP_ENDPOINT": collector.url})
        try:
            trace_id, root_span = secrets.token_hex(16), secrets.token_hex(8)
            # The caller's trace context, as a mesh sidecar or an SDK sends it.
            metadata = [("traceparent", f"00-{trace_id}-{root_span}-01")]
            channels = [grpc.insecure_channel(service.address)
                        for service in (suite.registry, suite.orchestrator, suite.dal, suite.gate)]
            registry, orch = registry_grpc.SkillRegistryServiceStub(channels[0]), orch_grpc.OrchestratorServiceStub(channels[1])
            dal, gate = dal_grpc.DalAgentServiceStub(channels[2]), gate_service_pb2_grpc.GateServiceStub(channels[3])

            registry.GetSkill(registry_pb2.GetSkillRequest(name="skills/cs-tier-1"), timeout=10, metadata=metadata)
            job = orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="I want a refund"),
                                timeout=10, metadata=metadata)
            for field, value in (("order_id", struct_pb2.Value(string_value="ORD-1")),
                                 ("amount", struct_pb2.Value(number_value=700))):
                job = settle(orch, job.name, lambda j: j.status == PAUSED and field in j.waiting.requested_fields)
                dal.SubmitInput(dal_pb2.SubmitInputRequest(job=job.name, correlation_id=job.waiting.correlation_id,
                                                           fields={field: value}), timeout=10, metadata=metadata)
            job = settle(orch, job.name, lambda j: j.status == PAUSED and j.waiting.reason_code == "APPROVAL_REQUIRED")
            gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
                job=job.name, correlation_id=job.waiting.correlation_id,
                decision=gate_pb2.APPROVAL_DECISION_APPROVE), timeout=10, metadata=metadata)
            job = settle(orch, job.name, lambda j: j.status == COMPLETED)
            # The job names its trace (the console links it to a trace UI),
            # and the skill version it ran.
            self.assertEqual(job.trace_id, trace_id)
            self.assertTrue(job.skill_etag, "the version it ran")
            for channel in channels:
                channel.close()
        finally:
            # SIGTERM flushes every process' buffered spans.
            suite.stop()
            collector.stop()

        spans = [(service, span) for service, span in collector.spans if span.trace_id.hex() == trace_id]
        self.assertEqual({service for service, _ in spans} & SERVICES, SERVICES,
                         "every one of the five binaries has spans in the job's trace")
        ids = {span.span_id.hex() for _, span in spans} | {root_span}
        for service, span in spans:
            self.assertIn(span.parent_span_id.hex(), ids, f"{service} {span.name}: its parent is in the trace")
        by_id = {span.span_id.hex(): (service, span) for service, span in spans}

        def attribute(span, key):
            return next((a.value.string_value for a in span.attributes if a.key == key), "")

        start = [span for service, span in spans if span.name == "adas.v1.OrchestratorService/StartJob"]
        self.assertEqual(len(start), 1)
        self.assertEqual(start[0].parent_span_id.hex(), root_span)
        # Every pickup of the job (first run, after each answer, after the
        # approval) continues from the StartJob request, on the worker.
        steps = [span for service, span in spans if span.name == "job.step"]
        self.assertGreaterEqual(len(steps), 4)
        self.assertTrue(all(step.parent_span_id == start[0].span_id for step in steps))
        # The worker's calls to the step services are children of a step.
        for service in ("adas-intent", "adas-dal-agent", "adas-gate"):
            served = [span for s, span in spans if s == service and span.name.startswith("adas.v1.")
                      and by_id.get(span.parent_span_id.hex(), ("", None))[1] is not None]
            self.assertTrue(served, f"{service} served a call of the job's steps")

        # The MCP server got the trace context with each call, in `_meta` and
        # in the HTTP request's `traceparent` header: the tool.call span as the
        # parent, but a trace id of the suite's own — the one the caller chose
        # never reaches a third party — the same for every call of the job.
        with open(suite.executions_log, encoding="utf-8") as file:
            executed = [json.loads(line) for line in file if line.strip()]
        refund = [entry for entry in executed if entry["tool"] == "process_refund"]
        self.assertEqual(len(refund), 1)
        _, call_trace, call_parent, _ = refund[0]["traceparent"].split("-")
        self.assertNotEqual(call_trace, trace_id)
        self.assertEqual(len(call_trace), 32)
        self.assertEqual(by_id[call_parent][1].name, "tools/call process_refund")
        self.assertEqual(refund[0]["traceparent_header"], refund[0]["traceparent"])
        traces = {entry["traceparent"].split("-")[1] for entry in executed if entry.get("traceparent")}
        self.assertEqual(traces, {call_trace}, "one id for the job's calls")


def attributes(span):
    """A span's attributes as plain values."""
    values = {}
    for attribute in span.attributes:
        value = attribute.value
        values[attribute.key] = value.string_value if value.HasField("string_value") else value.int_value
    return values


class FirstJobOfAFreshProcess(unittest.TestCase):
    """`adas up` just started: its first job's trace is whole and named by
    OpenTelemetry's RPC conventions; a client that closes a finished watch
    cancels nothing; job and wait durations are histograms; the log names
    the model and has no colour codes when it is not a terminal."""

    def test_first_job_trace_watch_histograms_and_startup_log(self):
        collector = Collector()
        metrics_port = adas_client.free_port()
        log_path = os.path.join(adas_client.tempfile.mkdtemp(prefix="adas-log-"), "adas.log")
        memory = adas_client.tempfile.mkdtemp(prefix="adas-first-")
        env = {**os.environ, "ADAS_OTLP_ENDPOINT": collector.url, "ADAS_LOG_FORMAT": "pretty", "ADAS_LOG": "info"}
        env.pop("NO_COLOR", None)
        with open(log_path, "w", encoding="utf-8") as log:
            process = adas_client.subprocess.Popen(
                [str(adas_client.binary("adas")), "up", "--listen", "127.0.0.1:0", "--demo-mcp-listen", "127.0.0.1:0",
                 "--metrics-listen", f"127.0.0.1:{metrics_port}", "--memory-root", memory,
                 "--templates-dir", str(adas_client.ROOT / "skill-templates")],
                stdin=adas_client.subprocess.DEVNULL, stdout=adas_client.subprocess.PIPE, stderr=log, text=True, env=env)
            address = ""
            for line in process.stdout:
                if line.startswith("listening on "):
                    address = line[len("listening on "):].strip()
                    break
            self.assertTrue(address, "adas up serves")
            trace_id, root_span = secrets.token_hex(16), secrets.token_hex(8)
            metadata = [("traceparent", f"00-{trace_id}-{root_span}-01")]
            channel = grpc.insecure_channel(address)
            orch, dal = orch_grpc.OrchestratorServiceStub(channel), dal_grpc.DalAgentServiceStub(channel)
            try:
                job = orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="where is my order"),
                                    timeout=10, metadata=metadata)
                job = settle(orch, job.name, lambda j: j.status == PAUSED)
                dal.SubmitInput(dal_pb2.SubmitInputRequest(
                    job=job.name, correlation_id=job.waiting.correlation_id,
                    fields={"order_id": struct_pb2.Value(string_value="ORD-1")}), timeout=10)
                job = settle(orch, job.name, lambda j: j.status == COMPLETED)
                # A client reads to the event that ends the job and closes.
                stream = orch.WatchJob(orch_pb2.WatchJobRequest(name=job.name), timeout=10)
                for event in stream:
                    if event.status == COMPLETED:
                        break
                stream.cancel()
                time.sleep(0.3)
                with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as response:
                    page = response.read().decode()
            finally:
                channel.close()
                process.terminate()
                process.wait(timeout=30)
                process.stdout.close()
                collector.stop()

        families = {family.name: family for family in text_string_to_metric_families(page)}

        def samples(name, **labels):
            return [sample for family in families.values() for sample in family.samples
                    if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())]

        watch = "adas.v1.OrchestratorService"
        self.assertEqual(samples("adas_grpc_server_requests_total", service=watch, method="WatchJob", code="OK")[0].value, 1)
        self.assertFalse(samples("adas_grpc_server_requests_total", method="WatchJob", code="CANCELLED"),
                         "closing a finished watch is not a cancel")
        self.assertEqual(families["adas_job_duration_seconds"].type, "histogram")
        lived = samples("adas_job_duration_seconds_count", tenant="default", skill="cs-tier-1", status="completed")
        self.assertEqual(lived[0].value, 1)
        self.assertIn("604800", {sample.labels.get("le") for sample in samples("adas_job_duration_seconds_bucket")})
        waited = samples("adas_job_waiting_seconds_count", tenant="default", skill="cs-tier-1",
                         reason="MISSING_REQUIRED_INPUT")
        self.assertEqual(waited[0].value, 1)

        with open(log_path, encoding="utf-8") as file:
            log = file.read()
        self.assertNotIn("\x1b[", log, "no colour codes in a file")
        self.assertIn("no model configured", log)

        spans = [span for _, span in collector.spans if span.trace_id.hex() == trace_id]
        start = [span for span in spans if span.name == "adas.v1.OrchestratorService/StartJob"]
        self.assertEqual(len(start), 1, [span.name for span in spans])
        self.assertEqual(start[0].parent_span_id.hex(), root_span)
        self.assertEqual(attributes(start[0])["rpc.system"], "grpc")
        self.assertEqual(attributes(start[0])["rpc.service"], "adas.v1.OrchestratorService")
        self.assertEqual(attributes(start[0])["rpc.method"], "StartJob")
        self.assertEqual(attributes(start[0])["rpc.grpc.status_code"], 0)
        self.assertEqual(start[0].kind, start[0].SPAN_KIND_SERVER)
        steps = [span for span in spans if span.name == "job.step"]
        # The first pickup (planned, paused) and the one after the answer.
        self.assertEqual(len(steps), 2, "the first job's every step is in its trace")
        self.assertTrue(all(step.parent_span_id == start[0].span_id for step in steps))
        calls = [span for span in spans if span.name == "tools/call check_order_status"]
        self.assertEqual(len(calls), 1)
        self.assertIn(calls[0].parent_span_id, {step.span_id for step in steps})
        self.assertEqual(attributes(calls[0])["gen_ai.tool.name"], "check_order_status")
        self.assertEqual(attributes(calls[0])["mcp.method.name"], "tools/call")
        # The in-process demo server's requests are no traces of their own:
        # the MCP library's inner spans are not exported, and the server's
        # span of a call has the call's span as parent.
        names = {span.name for _, span in collector.spans}
        self.assertNotIn("serve_inner", names)
        served = [span for _, span in collector.spans if span.name == "POST /mcp"]
        self.assertTrue(served)
        self.assertTrue(all(span.parent_span_id == calls[0].span_id for span in served))


class GrpcCollector:
    """An OTLP/gRPC trace receiver: every span it was sent, with its
    process' service.name and service.version."""

    def __init__(self):
        from concurrent import futures

        from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc

        self.spans = []
        self.resources = []
        collector = self

        class Servicer(trace_service_pb2_grpc.TraceServiceServicer):
            def Export(self, request, context):
                for resource_spans in request.resource_spans:
                    resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
                    collector.resources.append(resource)
                    for scope in resource_spans.scope_spans:
                        collector.spans.extend((resource["service.name"], span) for span in scope.spans)
                return trace_service_pb2.ExportTraceServiceResponse()

        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Servicer(), self.server)
        port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()
        self.url = f"http://127.0.0.1:{port}"

    def stop(self):
        self.server.stop(grace=None)


class TracesAcrossTheHumanStep(unittest.TestCase):
    """OpenTelemetry's own variables alone turn export on (here OTLP/gRPC);
    the resource names the version; an approver's decision, made in a trace
    of its own as a person's browser or SDK makes it, links to the job's
    trace, and the job's next step links back to the decision."""

    def test_the_decision_and_the_next_step_link_to_each_other(self):
        collector = GrpcCollector()
        service = adas_client.Service("adas", "up", "--demo-mcp-listen", "127.0.0.1:0", env={
            "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"})
        channel = grpc.insecure_channel(service.address)
        orch, gate = orch_grpc.OrchestratorServiceStub(channel), gate_service_pb2_grpc.GateServiceStub(channel)
        dal = dal_grpc.DalAgentServiceStub(channel)
        job_trace, approver_trace = secrets.token_hex(16), secrets.token_hex(16)
        asked_trace, answer_trace = secrets.token_hex(16), secrets.token_hex(16)
        try:
            job = orch.StartJob(orch_pb2.StartJobRequest(
                skill="skills/cs-tier-1", program='process_refund(order_id="ORD-1", amount=700)'),
                timeout=10, metadata=[("traceparent", f"00-{job_trace}-{secrets.token_hex(8)}-01")])
            job = settle(orch, job.name, lambda j: j.status == PAUSED)
            self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
            gate.DecideApproval(gate_service_pb2.DecideApprovalRequest(
                job=job.name, correlation_id=job.waiting.correlation_id,
                decision=gate_pb2.APPROVAL_DECISION_APPROVE, comment="ok"),
                timeout=10, metadata=[("traceparent", f"00-{approver_trace}-{secrets.token_hex(8)}-01")])
            settle(orch, job.name, lambda j: j.status == COMPLETED)
            # A user's answer is a person's call too.
            asked = orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="where is my order"),
                                  timeout=10, metadata=[("traceparent", f"00-{asked_trace}-{secrets.token_hex(8)}-01")])
            asked = settle(orch, asked.name, lambda j: j.status == PAUSED)
            dal.SubmitInput(dal_pb2.SubmitInputRequest(
                job=asked.name, correlation_id=asked.waiting.correlation_id,
                fields={"order_id": struct_pb2.Value(string_value="ORD-1")}),
                timeout=10, metadata=[("traceparent", f"00-{answer_trace}-{secrets.token_hex(8)}-01")])
            settle(orch, asked.name, lambda j: j.status == COMPLETED)
        finally:
            channel.close()
            # SIGTERM flushes the buffered spans.
            service.stop()
            collector.stop()

        self.assertTrue(collector.resources, "spans arrived over OTLP/gRPC from OTEL_EXPORTER_OTLP_ENDPOINT alone")
        self.assertTrue(all(resource.get("service.version") for resource in collector.resources))
        by_name = {}
        for _, span in collector.spans:
            by_name.setdefault(span.name, []).append(span)
        (decision,) = [span for span in by_name["adas.v1.GateService/DecideApproval"]
                       if span.trace_id.hex() == approver_trace]
        job_spans = {span.span_id for _, span in collector.spans if span.trace_id.hex() == job_trace}
        self.assertTrue(any(link.trace_id.hex() == job_trace and link.span_id in job_spans
                            for link in decision.links), "the decision links to the job's trace")
        steps = [span for span in by_name["job.step"] if span.trace_id.hex() == job_trace]
        resumed = [step for step in steps
                   if any(link.trace_id.hex() == approver_trace and link.span_id == decision.span_id
                          for link in step.links)]
        self.assertEqual(len(resumed), 1, "the step after the decision links back to it")
        attributes_of = {a.key: a.value.string_value for a in resumed[0].attributes}
        self.assertEqual(attributes_of["adas.job.id"], job.job_id)
        self.assertEqual((attributes_of["adas.skill"], attributes_of["adas.tenant"]), ("cs-tier-1", "default"))
        (answer,) = [span for span in by_name["adas.v1.DalAgentService/SubmitInput"]
                     if span.trace_id.hex() == answer_trace]
        self.assertTrue(any(link.trace_id.hex() == asked_trace for link in answer.links))
        self.assertTrue(any(link.span_id == answer.span_id for step in by_name["job.step"]
                            if step.trace_id.hex() == asked_trace for link in step.links))


class MetricsPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.metrics_port = adas_client.free_port()
        cls.service = adas_client.Service("adas", "up", "--demo-mcp-listen", "127.0.0.1:0",
                                          "--metrics-listen", f"127.0.0.1:{cls.metrics_port}")
        cls.channel = grpc.insecure_channel(cls.service.address)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        cls.service.stop()

    def get(self, path, method="GET"):
        request = urllib.request.Request(f"http://127.0.0.1:{self.metrics_port}{path}", method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, ""

    def test_a_scrape_parses_with_labels_and_histograms(self):
        orch = orch_grpc.OrchestratorServiceStub(self.channel)
        job = orch.StartJob(orch_pb2.StartJobRequest(skill="skills/cs-tier-1", goal="refund 700 on ORD-1"), timeout=10)
        job = settle(orch, job.name, lambda j: j.status == PAUSED)
        self.assertEqual(job.waiting.reason_code, "APPROVAL_REQUIRED")
        with self.assertRaises(grpc.RpcError):
            orch.GetJob(orch_pb2.GetJobRequest(name="skills/cs-tier-1/jobs/nope"), timeout=10)

        status, page = self.get("/metrics")
        self.assertEqual(status, 200)
        families = {family.name: family for family in text_string_to_metric_families(page)}

        def samples(name, **labels):
            return [sample for family in families.values() for sample in family.samples
                    if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())]

        start = samples("adas_grpc_server_requests_total", service="adas.v1.OrchestratorService",
                        method="StartJob", code="OK")
        self.assertEqual(len(start), 1)
        self.assertGreaterEqual(start[0].value, 1)
        self.assertTrue(samples("adas_grpc_server_requests_total", method="GetJob", code="NOT_FOUND"))
        self.assertEqual(families["adas_grpc_server_handling_seconds"].type, "histogram")
        buckets = samples("adas_grpc_server_handling_seconds_bucket", method="StartJob", code="OK")
        self.assertGreater(len(buckets), 5)
        self.assertEqual(buckets[-1].labels["le"], "+Inf")
        self.assertEqual(families["adas_tool_call_seconds"].type, "histogram")
        # Per tenant and skill: "which tenant's approvals wait" can be asked.
        self.assertTrue(samples("adas_tool_call_seconds_count", tenant="default", skill="cs-tier-1",
                                tool="check_order_status", result="ok"))
        # Where the job's own time went: each effect of its steps, timed.
        self.assertEqual(families["adas_step_effect_seconds"].type, "histogram")
        for effect in ("plan", "gate", "run"):
            counted = samples("adas_step_effect_seconds_count", effect=effect)
            self.assertTrue(counted and counted[0].value >= 1, effect)
        self.assertGreaterEqual(samples("adas_jobs_started_total", tenant="default", skill="cs-tier-1")[0].value, 1)
        self.assertEqual(samples("adas_approvals_pending", tenant="default", skill="cs-tier-1")[0].value, 1)
        self.assertEqual(samples("adas_jobs_waiting", tenant="default", skill="cs-tier-1",
                                 reason="APPROVAL_REQUIRED")[0].value, 1)
        self.assertTrue(samples("adas_queue_depth", state="ready"))
        self.assertTrue(samples("adas_tool_cache_total", tier="process"))
        self.assertTrue(samples("adas_job_events_total", kind="PAUSED"))
        self.assertEqual(samples("adas_build_info")[0].value, 1)
        # The process itself, as client_golang names it.
        self.assertGreater(samples("process_resident_memory_bytes")[0].value, 1_000_000)
        self.assertGreater(samples("process_open_fds")[0].value, 0)
        self.assertEqual(families["process_cpu_seconds"].type, "counter")
        # Every family says what it is.
        helped = set(re.findall(r"(?m)^# HELP (\S+) \S", page))
        typed = set(re.findall(r"(?m)^# TYPE (\S+) ", page))
        self.assertEqual(typed - helped, set(), "a family without # HELP")
        # The README's alert rules read families the suite describes (a
        # family shows on the page once something is recorded in it).
        described = set(re.findall(r'describe_\w+!\(\s*"(adas_\w+)"',
                                   (adas_client.ROOT / "shared/runtime/src/metrics.rs").read_text(encoding="utf-8")))
        readme = (adas_client.ROOT / "README.md").read_text(encoding="utf-8")
        block = readme.split("Two rules to start from:", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
        rules = yaml.safe_load(textwrap.dedent(block))["groups"][0]["rules"]
        self.assertEqual(len(rules), 2)
        for rule in rules:
            for name in re.findall(r"adas_[a-z_]+", rule["expr"]):
                family = re.sub(r"_(bucket|count|sum)$", "", name)
                self.assertIn(family, described, f"{rule['alert']}: {name}")
        self.assertEqual(self.get("/")[0], 404)
        self.assertEqual(self.get("/metrics.json")[0], 404)
        self.assertEqual(self.get("/metrics", method="POST")[0], 405)


if __name__ == "__main__":
    unittest.main()
