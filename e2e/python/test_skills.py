"""SkillRegistryService from a Python client generated from proto/, against the
real `adas-skill-registry` binary on an empty memory root (issue 3)."""

import os
import pathlib
import unittest

import grpc
from google.rpc import error_details_pb2, status_pb2

import adas_client

adas_client.generate_client()

from adas.v1 import (  # noqa: E402  (generated above)
    skill_pb2,
    skill_registry_service_pb2 as registry_pb2,
    skill_registry_service_pb2_grpc as registry_grpc,
)

BROKEN = """name: broken
problem: {statement: s}
intents: {supported: [{id: a}]}
tools:
  - name: lookup
    inputs:
      - name: id
        type: strin
policy:
  workflows:
    - name: flow
      steps: [lookup, nowhere]
"""


def details(error: grpc.RpcError):
    """Decodes the google.rpc.Status details of an error."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            found = {}
            for detail in status.details:
                for kind in (error_details_pb2.ErrorInfo, error_details_pb2.BadRequest):
                    if detail.Is(kind.DESCRIPTOR):
                        message = kind()
                        detail.Unpack(message)
                        found[kind.__name__] = message
            return found
    return {}


class SkillRegistry(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.service = adas_client.Service("adas-skill-registry")
        cls.root = pathlib.Path(cls.service.memory_root)
        cls.channel = grpc.insecure_channel(cls.service.address)
        cls.stub = registry_grpc.SkillRegistryServiceStub(cls.channel)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        if cls.service.stop() != 0:
            raise AssertionError("adas-skill-registry did not exit 0 after SIGTERM")

    def test_get_skill_bootstraps_the_slag_directory(self):
        # A server of its own, so its memory root is empty.
        service = adas_client.Service("adas-skill-registry")
        try:
            root = pathlib.Path(service.memory_root)
            self.assertEqual(list(root.iterdir()), [], "the memory root starts empty")
            with grpc.insecure_channel(service.address) as channel:
                stub = registry_grpc.SkillRegistryServiceStub(channel)
                skill = stub.GetSkill(registry_pb2.GetSkillRequest(name="skills/cs-tier-1"), timeout=10)
            self.assertEqual(skill.name, "skills/cs-tier-1")
            self.assertEqual(skill.template, "cs-tier-1")
            for entry in ["skill.yaml", "jobs", "logs"]:
                self.assertTrue((root / "cs-tier-1" / entry).exists(), entry)
            approvals = skill.compiled_policy.approvals
            self.assertEqual([(a.tool, a.when, a.approver) for a in approvals],
                             [("process_refund", "amount > 500", "supervisor")])
            self.assertIn("Never use delete_customer_record", [g.original for g in skill.compiled_policy.guardrails])
        finally:
            self.assertEqual(service.stop(), 0)

    def test_validate_skill_returns_line_numbered_diagnostics(self):
        response = self.stub.ValidateSkill(
            registry_pb2.ValidateSkillRequest(source=BROKEN, file_name="broken.yaml"), timeout=10)
        self.assertFalse(response.valid)
        errors = [(d.line, d.column, d.path) for d in response.diagnostics if d.severity == skill_pb2.SEVERITY_ERROR]
        self.assertEqual(errors, [(8, 15, "tools[0].inputs[0].type"), (12, 23, "policy.workflows[0].steps[1]")])

        syntax = self.stub.ValidateSkill(registry_pb2.ValidateSkillRequest(source="a: [1,\n"), timeout=10)
        self.assertFalse(syntax.valid)
        self.assertGreater(syntax.diagnostics[0].line, 0)

    def test_put_skill_with_an_error_is_refused_and_the_old_file_kept(self):
        skill = self.stub.GetSkill(registry_pb2.GetSkillRequest(name="devops-tier-1"), timeout=10)
        path = self.root / "devops-tier-1" / "skill.yaml"
        before = path.read_text()
        with self.assertRaises(grpc.RpcError) as caught:
            self.stub.PutSkill(registry_pb2.PutSkillRequest(name="skills/devops-tier-1", source=BROKEN, etag=skill.etag),
                               timeout=10)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        found = details(caught.exception)
        self.assertEqual(found["ErrorInfo"].reason, "SKILL_INVALID")
        fields = [v.field for v in found["BadRequest"].field_violations]
        self.assertIn("source.tools[0].inputs[0].type", fields)
        self.assertEqual(path.read_text(), before, "the stored file is untouched")

        updated = before.replace("DevOps: Tier 1", "DevOps: Tier 1 (EU)")
        stored = self.stub.PutSkill(
            registry_pb2.PutSkillRequest(name="skills/devops-tier-1", source=updated, etag=skill.etag), timeout=10)
        self.assertEqual(stored.display_name, "DevOps: Tier 1 (EU)")
        self.assertEqual(path.read_text(), updated)

    def test_unsafe_slags_are_refused(self):
        for name in ["skills/../etc", "../etc", "a/b"]:
            with self.assertRaises(grpc.RpcError) as caught:
                self.stub.GetSkill(registry_pb2.GetSkillRequest(name=name), timeout=10)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, name)
        self.assertFalse((self.root.parent / "etc").exists())

    def test_unknown_slags_are_not_found_and_nothing_is_persisted(self):
        with self.assertRaises(grpc.RpcError) as caught:
            self.stub.GetSkill(registry_pb2.GetSkillRequest(name="skills/cs-teir-1"), timeout=10)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.NOT_FOUND)
        self.assertEqual(details(caught.exception)["ErrorInfo"].reason, "SKILL_NOT_FOUND")
        self.assertIn("cs-tier-1", caught.exception.details(), "the known templates are named")
        self.assertFalse((self.root / "cs-teir-1").exists())

    def test_put_skill_needs_a_name(self):
        default = self.stub.GetSkill(registry_pb2.GetSkillRequest(name=""), timeout=10)
        source = "name: overwritten\nproblem: {statement: s}\nintents: {supported: [{id: a}]}\ntools: []\n"
        for name in ["", "skills/"]:
            with self.assertRaises(grpc.RpcError) as caught:
                self.stub.PutSkill(registry_pb2.PutSkillRequest(name=name, source=source), timeout=10)
            self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, name)
            fields = [v.field for v in details(caught.exception)["BadRequest"].field_violations]
            self.assertEqual(fields, ["name"])
        after = self.stub.GetSkill(registry_pb2.GetSkillRequest(name=""), timeout=10)
        self.assertEqual(after.etag, default.etag, "the default skill was not overwritten")

    def test_bind_resources_names_what_is_missing(self):
        with self.assertRaises(grpc.RpcError) as caught:
            self.stub.BindResources(registry_pb2.BindResourcesRequest(skill="skills/sw-dev-agent"), timeout=10)
        self.assertEqual(caught.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        fields = [v.field for v in details(caught.exception)["BadRequest"].field_violations]
        self.assertEqual(fields, ["resources.codebase"])
        bound = self.stub.BindResources(
            registry_pb2.BindResourcesRequest(skill="skills/sw-dev-agent", resources={"codebase": str(self.root)}),
            timeout=10)
        self.assertEqual(dict(bound.resources), {"codebase": str(self.root)})
        self.assertEqual(list(bound.unbound_optional), ["docs"])

    def test_templates_and_skills_are_listed_in_pages(self):
        templates = self.stub.ListTemplates(registry_pb2.ListTemplatesRequest(page_size=2), timeout=10)
        self.assertEqual([t.slag for t in templates.templates], ["cs-tier-1", "devops-tier-1"])
        rest = self.stub.ListTemplates(
            registry_pb2.ListTemplatesRequest(page_size=2, page_token=templates.next_page_token), timeout=10)
        self.assertEqual([t.slag for t in rest.templates], ["identity-verification", "sw-dev-agent"])
        self.assertEqual(rest.next_page_token, "")
        self.stub.BootstrapSkill(registry_pb2.BootstrapSkillRequest(slag="ops-eu", template="devops-tier-1"), timeout=10)
        listed = self.stub.ListSkills(registry_pb2.ListSkillsRequest(), timeout=10)
        self.assertIn("skills/ops-eu", [s.name for s in listed.skills])


if __name__ == "__main__":
    unittest.main()
