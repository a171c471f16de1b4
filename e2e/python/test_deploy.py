"""The deployment files are checked, not trusted (issues 18 and 50): the Helm
chart (deploy/helm/adas) linted and rendered with helm (a pinned binary from
the venv, offline), every object it renders validated against the Kubernetes
OpenAPI schema (kubernetes-validate, strict: an unknown field is an error) in
both gateway modes, and what running ADAS safely needs is there — resources,
a non-root read-only securityContext, a PodDisruptionBudget per service,
probes, a durable Redis, one address routing every adas.v1 service, the
console — in the chart and in compose alike."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import kubernetes_validate
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHART = ROOT / "deploy" / "helm" / "adas"
HELM = pathlib.Path(sys.executable).parent / "helm"
K8S_VERSION = "1.33"
SERVICES = ["adas-intent", "adas-skill-registry", "adas-orchestrator", "adas-gate", "adas-dal-agent"]
DURABLE_REDIS = ["--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"]


def documents(path):
    with open(path, encoding="utf-8") as file:
        return [doc for doc in yaml.safe_load_all(file) if doc]


def render(*values):
    """The chart as `helm template` renders it with `--set` values."""
    args = [str(HELM), "template", "adas", str(CHART)]
    for value in values:
        args += ["--set", value]
    rendered = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return [doc for doc in yaml.safe_load_all(rendered) if doc]


def grpc_services():
    """Every service of the public contract, by its full name."""
    names = set()
    for proto in (ROOT / "proto" / "adas" / "v1").glob("*.proto"):
        names |= {f"adas.v1.{name}" for name in re.findall(r"(?m)^service (\w+)", proto.read_text())}
    return names


class Kubernetes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.docs = render()
        cls.by_kind = {}
        for doc in cls.docs:
            cls.by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    def test_the_chart_lints_strictly(self):
        linted = subprocess.run([str(HELM), "lint", "--strict", str(CHART)], capture_output=True, text=True)
        self.assertEqual(linted.returncode, 0, linted.stdout + linted.stderr)

    def test_every_object_matches_the_kubernetes_schema(self):
        external = render("gateway.mode=grpcroute", "console.server=http://adas.example:443",
                          "redis.enabled=false", "redis.url=redis://redis.example:6379/")
        for doc in [*self.docs, *external]:
            if doc["kind"] == "GRPCRoute":
                continue  # a Gateway API CRD: checked by its own test
            with self.subTest(kind=doc["kind"], name=doc["metadata"]["name"]):
                kubernetes_validate.validate(doc, K8S_VERSION, strict=True)

    def test_a_wrong_value_fails_the_render(self):
        for value in ["gateway.mode=nginx", "redis.enabled=false"]:
            with self.subTest(value=value):
                with self.assertRaises(subprocess.CalledProcessError):
                    render(value)

    def test_the_validator_refuses_a_broken_object(self):
        broken = yaml.safe_load(yaml.safe_dump(self.by_kind["Deployment"]["adas-gate"]))
        broken["spec"]["template"]["spec"]["containers"][0]["resourcez"] = {}
        with self.assertRaises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(broken, K8S_VERSION, strict=True)

    def test_every_workload_is_bounded_non_root_and_probed(self):
        workloads = {**self.by_kind["Deployment"], **self.by_kind["StatefulSet"]}
        self.assertEqual(set(workloads), {*SERVICES, "adas-demo-mcp", "redis", "adas-gateway", "adas-console"})
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
        self.assertEqual(config["ADAS_ORCHESTRATOR_ADDR"], "http://adas-orchestrator:50053")
        # The templates are built into the binaries: no directory to mount.
        self.assertNotIn("ADAS_TEMPLATES_DIR", config)
        self.assertEqual(config["ADAS_DEMO_MCP_URL"], "http://adas-demo-mcp:50060/mcp")

    def test_every_pod_keys_its_audit_digests_with_the_one_secret(self):
        # Digests compare across processes only under one key: the auth
        # Secret's ADAS_AUDIT_KEY, read by every service through envFrom.
        config = self.by_kind["ConfigMap"]["adas-config"]["data"]
        self.assertEqual(config["ADAS_AUDIT_SECRET"], "env:ADAS_AUDIT_KEY")
        for name, deployment in self.by_kind["Deployment"].items():
            container = deployment["spec"]["template"]["spec"]["containers"][0]
            sources = container.get("envFrom", [])
            if any(source.get("configMapRef", {}).get("name") == "adas-config" for source in sources):
                with self.subTest(deployment=name):
                    self.assertTrue(any("secretRef" in source for source in sources))


    def test_one_address_routes_every_service_by_its_grpc_name(self):
        # Envoy (in the release): its routes name every adas.v1 service, each
        # to the cluster of the Service that serves it, on that Service's port.
        envoy = yaml.safe_load(self.by_kind["ConfigMap"]["adas-gateway"]["data"]["envoy.yaml"])
        self.assertEqual(envoy, yaml.safe_load((CHART / "files" / "envoy.yaml").read_text()))
        ports = {name: service["spec"]["ports"][0]["port"] for name, service in self.by_kind["Service"].items()}
        self.assertEqual(envoy_routes(envoy), {name: name_of(name) for name in grpc_services()})
        for cluster, port in envoy_clusters(envoy).items():
            self.assertEqual(ports[cluster], port, cluster)
        # Or a Gateway API GRPCRoute on the operator's Gateway.
        route = next(doc for doc in render("gateway.mode=grpcroute", "console.server=http://gw:443")
                     if doc["kind"] == "GRPCRoute")
        self.assertEqual(route["apiVersion"], "gateway.networking.k8s.io/v1")
        self.assertEqual(route["spec"]["parentRefs"], [{"name": "adas-gateway"}])
        routed = {match["method"]["service"]: rule["backendRefs"][0]
                  for rule in route["spec"]["rules"] for match in rule["matches"]}
        for service in grpc_services():
            self.assertEqual(routed[service]["name"], name_of(service), service)
            self.assertEqual(routed[service]["port"], ports[name_of(service)], service)
        self.assertIn("grpc.health.v1.Health", routed)

    def test_the_console_is_deployed_against_the_one_address(self):
        console = self.by_kind["Deployment"]["adas-console"]["spec"]["template"]["spec"]["containers"][0]
        args = console["args"]
        self.assertEqual(args[0], "console")
        self.assertEqual(args[args.index("--server") + 1], "http://adas-gateway:50050")
        self.assertEqual(self.by_kind["Service"]["adas-console"]["spec"]["ports"][0]["port"], 50070)


def name_of(service):
    """`adas.v1.DalAgentService` → `adas-dal-agent`: the Service that serves it."""
    short = service.removeprefix("adas.v1.").removesuffix("Service")
    return "adas-" + re.sub(r"(?<!^)(?=[A-Z])", "-", short).lower()


def envoy_routes(envoy):
    """adas.v1 service → the cluster Envoy routes it to."""
    manager = envoy["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    routes = manager["route_config"]["virtual_hosts"][0]["routes"]
    return {route["match"]["prefix"].strip("/"): route["route"]["cluster"]
            for route in routes if route["match"]["prefix"].startswith("/adas.v1.")}


def envoy_clusters(envoy):
    """Envoy cluster → the port it sends to (the cluster is named for its host)."""
    clusters = {}
    for cluster in envoy["static_resources"]["clusters"]:
        address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
        assert address["socket_address"]["address"] == cluster["name"], cluster["name"]
        clusters[cluster["name"]] = address["socket_address"]["port_value"]
    return clusters


class Compose(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.compose = documents(ROOT / "deploy" / "compose.yaml")[0]
        cls.services = cls.compose["services"]

    def test_redis_is_durable_and_every_service_runs(self):
        self.assertEqual(set(self.services), {"redis", "adas-demo-mcp", *SERVICES, "gateway", "console"})
        command = self.services["redis"]["command"]
        for flag, value in zip(DURABLE_REDIS[::2], DURABLE_REDIS[1::2]):
            self.assertEqual(command[command.index(flag) + 1], value)
        self.assertIn("redis-data:/data", self.services["redis"]["volumes"])
        environment = self.services["adas-orchestrator"]["environment"]
        self.assertEqual(environment["ADAS_DEMO_MCP_URL"], "http://adas-demo-mcp:50060/mcp")
        self.assertEqual(environment["ADAS_DURABILITY"], "strict")
        self.assertEqual(environment["ADAS_AUDIT_SECRET"], "env:ADAS_AUDIT_KEY")
        self.assertIn("ADAS_AUDIT_KEY", environment)

    def test_services_run_the_dockerfile_image_unprivileged_with_grpc_health(self):
        for name in [*SERVICES, "adas-demo-mcp", "console"]:
            service = self.services[name]
            with self.subTest(service=name):
                self.assertEqual(service["build"], {"context": "..", "dockerfile": "Dockerfile"})
                self.assertEqual(service["image"], "adas:local")
                self.assertEqual(service["user"], "10001:10001")
                self.assertTrue(service["read_only"])
                self.assertEqual(service["cap_drop"], ["ALL"])
        for name in SERVICES:
            port = self.services[name]["command"][-1].rsplit(":", 1)[1]
            test = self.services[name]["healthcheck"]["test"]
            with self.subTest(service=name):
                self.assertEqual(test[:3], ["CMD", "adas", "health"])
                self.assertEqual(test[test.index("--server") + 1], f"http://127.0.0.1:{port}")
                self.assertEqual(name_of(test[test.index("--service") + 1]), name)

    def test_every_service_reading_the_auth_file_may_read_it(self):
        # The auth file is bind-mounted from the host, owned there by whoever
        # ran `adas auth`; the containers run as 10001 and read it through
        # the file's group, which compose adds to each of them.
        header = (ROOT / "deploy" / "compose.yaml").read_text(encoding="utf-8")
        self.assertIn("chmod 0640 deploy/auth.json", header)
        self.assertIn('export ADAS_AUTH_GID="$(stat -c %g deploy/auth.json)"', header)
        readers = [name for name, service in self.services.items()
                   if any(str(volume).startswith("./auth.json:") for volume in service.get("volumes", []))]
        self.assertEqual(set(readers), set(SERVICES))
        for name in readers:
            with self.subTest(service=name):
                self.assertEqual(self.services[name]["environment"]["ADAS_AUTH_FILE"], "/etc/adas/auth.json")
                (group,) = self.services[name]["group_add"]
                self.assertTrue(group.startswith("${ADAS_AUTH_GID:?"), group)

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("setpriv"),
                         "needs root and setpriv to act as the containers' user")
    def test_the_containers_user_reads_the_auth_file_as_documented(self):
        # The crash loop of issue 63, outside Docker: the file as `adas auth`
        # writes it, read as uid 10001 with and without the documented group.
        adas = pathlib.Path(os.environ.get("ADAS_BIN_DIR", ROOT / "target" / "debug")) / "adas"
        with tempfile.TemporaryDirectory() as scratch:
            os.chmod(scratch, 0o755)
            auth = pathlib.Path(scratch) / "auth.json"
            create = [str(adas), "auth", "key", "create", "--auth-file", str(auth), "--tenant", "default",
                      "--role", "user", "--name"]
            subprocess.run(create + ["ann"], check=True, capture_output=True)
            os.chown(auth, 0, 4242)

            def read_as_service(*groups):
                setpriv = ["setpriv", "--reuid", "10001", "--regid", "10001"]
                setpriv += ["--groups", ",".join(groups)] if groups else ["--clear-groups"]
                return subprocess.run(setpriv + [str(adas), "auth", "key", "list", "--auth-file", str(auth)],
                                      capture_output=True, text=True)

            refused = read_as_service("4242")
            self.assertNotEqual(refused.returncode, 0, "as written, only its owner reads it")
            self.assertIn("Permission denied", refused.stderr)
            os.chmod(auth, 0o640)
            listed = read_as_service("4242")
            self.assertEqual(listed.returncode, 0, listed.stderr)
            self.assertIn("ann", listed.stdout)
            self.assertNotEqual(read_as_service().returncode, 0, "without the group it stays unreadable")
            # A key created later rewrites the file: its group and bits stay.
            subprocess.run(create + ["bob"], check=True, capture_output=True)
            self.assertEqual((auth.stat().st_gid, auth.stat().st_mode & 0o777), (4242, 0o640))
            self.assertIn("bob", read_as_service("4242").stdout)

    def test_one_published_address_and_the_console(self):
        gateway = self.services["gateway"]
        self.assertEqual(gateway["ports"], ["127.0.0.1:50050:50050"])
        self.assertIn("./helm/adas/files/envoy.yaml:/etc/envoy/envoy.yaml:ro", gateway["volumes"])
        self.assertEqual(set(gateway["depends_on"]), set(SERVICES))
        envoy = yaml.safe_load((CHART / "files" / "envoy.yaml").read_text())
        ports = {name: int(self.services[name]["command"][-1].rsplit(":", 1)[1]) for name in SERVICES}
        self.assertEqual(envoy_clusters(envoy), ports, "Envoy sends each service's calls to its port")
        console = self.services["console"]
        self.assertEqual(console["ports"], ["127.0.0.1:50070:50070"])
        self.assertEqual(console["command"][console["command"].index("--server") + 1], "http://gateway:50050")


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
        # The shipped templates are built into the binaries, not copied.
        self.assertNotIn("skill-templates", runtime)
        self.assertNotIn("ADAS_TEMPLATES_DIR", runtime)
        ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
        self.assertTrue({"target", ".git"} <= set(ignored), "the build context leaves out builds and history")

    def test_every_binary_the_manifests_run_is_in_the_image(self):
        copied = set(re.findall(r"target/release/([\w-]+)", self.stages[0]))
        run = set()
        for doc in render():
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
            if command and command[0] == "adas":
                run.add("adas")
            health = (service.get("healthcheck") or {}).get("test") or []
            if health[1:2] == ["adas"]:
                run.add("adas")
        self.assertEqual(run, {"adas-intent", "adas-skill-registry", "adas-orchestrator", "adas-gate",
                               "adas-dal-agent", "adas-demo-mcp", "adas"})
        self.assertLessEqual(run, copied)


if __name__ == "__main__":
    unittest.main()
