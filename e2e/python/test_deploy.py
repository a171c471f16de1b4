"""The deployment files are checked, not trusted (issue 18): every object of
deploy/k8s validated against the Kubernetes OpenAPI schema (kubernetes-validate,
strict: an unknown field is an error), and what running ADAS safely needs is
there — resources, a non-root read-only securityContext, a PodDisruptionBudget
per service, probes, a durable Redis — in k8s and compose alike."""

import json
import pathlib
import re
import subprocess
import unittest

import kubernetes_validate
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
K8S_VERSION = "1.33"
SERVICES = ["adas-intent", "adas-skill-registry", "adas-orchestrator", "adas-gate", "adas-dal-agent"]
DURABLE_REDIS = ["--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"]


def documents(path):
    with open(path, encoding="utf-8") as file:
        return [doc for doc in yaml.safe_load_all(file) if doc]


class Kubernetes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.docs = documents(ROOT / "deploy" / "k8s" / "adas.yaml")
        cls.by_kind = {}
        for doc in cls.docs:
            cls.by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    def test_every_object_matches_the_kubernetes_schema(self):
        for doc in self.docs:
            with self.subTest(kind=doc["kind"], name=doc["metadata"]["name"]):
                kubernetes_validate.validate(doc, K8S_VERSION, strict=True)

    def test_the_validator_refuses_a_broken_object(self):
        broken = yaml.safe_load(yaml.safe_dump(self.by_kind["Deployment"]["adas-gate"]))
        broken["spec"]["template"]["spec"]["containers"][0]["resourcez"] = {}
        with self.assertRaises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(broken, K8S_VERSION, strict=True)

    def test_every_workload_is_bounded_non_root_and_probed(self):
        workloads = {**self.by_kind["Deployment"], **self.by_kind["StatefulSet"]}
        self.assertEqual(set(workloads), {*SERVICES, "adas-demo-mcp", "redis"})
        for name, workload in workloads.items():
            pod = workload["spec"]["template"]["spec"]
            with self.subTest(workload=name):
                self.assertTrue(pod["securityContext"]["runAsNonRoot"])
                for container in pod["containers"]:
                    resources = container["resources"]
                    self.assertEqual(set(resources), {"requests", "limits"})
                    security = container["securityContext"]
                    self.assertFalse(security["allowPrivilegeEscalation"])
                    self.assertTrue(security["readOnlyRootFilesystem"])
                    self.assertEqual(security["capabilities"]["drop"], ["ALL"])
                    self.assertIn("readinessProbe", container)
                    self.assertIn("livenessProbe", container)

    def test_each_service_has_a_disruption_budget_and_a_startup_probe(self):
        budgets = self.by_kind["PodDisruptionBudget"]
        for name in SERVICES:
            with self.subTest(service=name):
                self.assertEqual(budgets[name]["spec"]["selector"]["matchLabels"], {"app": name})
                deployment = self.by_kind["Deployment"][name]
                self.assertGreaterEqual(deployment["spec"]["replicas"], 2)
                container = deployment["spec"]["template"]["spec"]["containers"][0]
                self.assertIn("startupProbe", container)
                self.assertEqual(container["image"], "adas:latest")

    def test_redis_is_durable_on_a_volume_and_checked_strictly(self):
        redis = self.by_kind["StatefulSet"]["redis"]
        args = redis["spec"]["template"]["spec"]["containers"][0]["args"]
        for flag, value in zip(DURABLE_REDIS[::2], DURABLE_REDIS[1::2]):
            self.assertEqual(args[args.index(flag) + 1], value)
        self.assertTrue(redis["spec"]["volumeClaimTemplates"])
        config = self.by_kind["ConfigMap"]["adas-config"]["data"]
        self.assertEqual(config["ADAS_DURABILITY"], "strict")
        self.assertEqual(config["ADAS_TEMPLATES_DIR"], "/opt/adas/skill-templates")
        self.assertEqual(config["ADAS_DEMO_MCP_URL"], "http://adas-demo-mcp:50060/mcp")


class Compose(unittest.TestCase):
    def test_redis_is_durable_and_every_service_runs(self):
        compose = documents(ROOT / "deploy" / "compose.yaml")[0]
        services = compose["services"]
        self.assertEqual(set(services), {"redis", "demo-mcp", "intent", "skill-registry", "orchestrator",
                                         "gate", "dal-agent"})
        command = services["redis"]["command"]
        for flag, value in zip(DURABLE_REDIS[::2], DURABLE_REDIS[1::2]):
            self.assertEqual(command[command.index(flag) + 1], value)
        self.assertIn("redis-data:/data", services["redis"]["volumes"])
        environment = services["orchestrator"]["environment"]
        self.assertEqual(environment["ADAS_DEMO_MCP_URL"], "http://demo-mcp:50060/mcp")
        self.assertIn("ADAS_TEMPLATES_DIR", environment)


class Image(unittest.TestCase):
    """The Dockerfile, checked against the workspace (no container runtime or
    registry here to build it): what it builds and copies exists, what the
    manifests run is in it, and it runs unprivileged."""

    @classmethod
    def setUpClass(cls):
        text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
        cls.stages = [stage for stage in re.split(r"(?m)^FROM ", text)[1:]]
        metadata = json.loads(subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
            cwd=ROOT, check=True, capture_output=True, text=True).stdout)
        cls.bins = {package["name"]: {target["name"] for target in package["targets"] if "bin" in target["kind"]}
                    for package in metadata["packages"]}

    def test_it_builds_workspace_binaries_and_runs_them_as_an_unprivileged_user(self):
        self.assertEqual(len(self.stages), 2, "a builder stage and a runtime stage")
        build, runtime = self.stages
        packages = re.findall(r"-p ([\w-]+)", build)
        for package in packages:
            self.assertIn(package, self.bins, f"{package} is a workspace package")
        built = set().union(*(self.bins[package] for package in packages))
        copied = set(re.findall(r"target/release/([\w-]+)", build))
        self.assertEqual(copied, built, "every binary built is copied, and only those")
        self.assertTrue(runtime.startswith("debian:"), "the toolchain stays in the builder")
        self.assertIn("COPY --from=build /out/ /opt/adas/", runtime)
        user = re.search(r"(?m)^USER (\S+)", runtime).group(1)
        self.assertTrue(user.isdigit() and int(user) != 0, f"numeric non-root user, not {user}")
        templates = re.search(r"(?m)^COPY (skill-templates)/ (\S+?)/?$", runtime)
        self.assertTrue((ROOT / templates.group(1)).is_dir())
        self.assertIn(f"ADAS_TEMPLATES_DIR={templates.group(2)}", runtime)
        ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
        self.assertTrue({"target", ".git"} <= set(ignored), "the build context leaves out builds and history")

    def test_every_binary_the_manifests_run_is_in_the_image(self):
        copied = set(re.findall(r"target/release/([\w-]+)", self.stages[0]))
        run = set()
        for doc in documents(ROOT / "deploy" / "k8s" / "adas.yaml"):
            if doc["kind"] not in ("Deployment", "StatefulSet"):
                continue
            for container in doc["spec"]["template"]["spec"]["containers"]:
                if container["image"].startswith("adas:"):
                    self.assertTrue(container["command"][0].startswith("/opt/adas/"))
                    run.add(container["command"][0].removeprefix("/opt/adas/"))
                    pod = doc["spec"]["template"]["spec"].get("securityContext", {})
                    user = container.get("securityContext", {}).get("runAsUser", pod.get("runAsUser"))
                    self.assertEqual(user, 10001, "the image's user")
        for service in documents(ROOT / "deploy" / "compose.yaml")[0]["services"].values():
            command = service.get("command") or []
            if command and command[0].startswith("/opt/adas/"):
                run.add(command[0].removeprefix("/opt/adas/"))
        self.assertEqual(run, {"adas-intent", "adas-skill-registry", "adas-orchestrator", "adas-gate",
                               "adas-dal-agent", "adas-demo-mcp"})
        self.assertLessEqual(run, copied)


if __name__ == "__main__":
    unittest.main()
