"""The deployment files are checked, not trusted (issues 18 and 50): the Helm
chart (deploy/helm/adas) linted and rendered with helm (a pinned binary from
the venv, offline), every object it renders validated against the Kubernetes
OpenAPI schema (kubernetes-validate, strict: an unknown field is an error) in
both gateway modes, and what running ADAS safely needs is there — resources,
a non-root read-only securityContext, a PodDisruptionBudget per service,
probes, a durable Redis behind a password from a Secret, one address routing
every adas.v1 service and spreading each request over every replica, the
console — in the chart and in compose alike. The chart follows Helm's
conventions: names scoped to the release, the standard labels, a values
schema, NetworkPolicies, its own ServiceAccount, the image at appVersion."""

import base64
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.parse

import jsonschema
import kubernetes_validate
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHART = ROOT / "deploy" / "helm" / "adas"
HELM = pathlib.Path(sys.executable).parent / "helm"
K8S_VERSION = "1.33"
SERVICES = ["adas-intent", "adas-skill-registry", "adas-orchestrator", "adas-gate", "adas-dal-agent"]
DURABLE_REDIS = ["--appendonly", "yes", "--appendfsync", "always", "--maxmemory-policy", "noeviction"]
STABLE_LABELS = {"app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component"}
STANDARD_LABELS = STABLE_LABELS | {"app.kubernetes.io/version", "app.kubernetes.io/part-of",
                                   "app.kubernetes.io/managed-by", "helm.sh/chart"}
WORKLOADS = ("Deployment", "StatefulSet")
ANYONE = "anyone"


def documents(path):
    with open(path, encoding="utf-8") as file:
        return [doc for doc in yaml.safe_load_all(file) if doc]


def helm_template(*values, release="adas"):
    """`helm template` of the chart with `--set` values, as run."""
    args = [str(HELM), "template", release, str(CHART)]
    for value in values:
        args += ["--set", value]
    return subprocess.run(args, capture_output=True, text=True)


def render(*values, release="adas"):
    """The chart as `helm template` renders it with `--set` values."""
    done = helm_template(*values, release=release)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def index(docs):
    """kind → name → object."""
    kinds = {}
    for doc in docs:
        kinds.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc
    return kinds


def pod_labels(docs):
    """Workload name → its pods' labels."""
    return {doc["metadata"]["name"]: doc["spec"]["template"]["metadata"]["labels"]
            for doc in docs if doc["kind"] in WORKLOADS}


def containers(docs):
    """(workload name, container) for every container the chart runs."""
    return [(doc["metadata"]["name"], container) for doc in docs if doc["kind"] in WORKLOADS
            for container in doc["spec"]["template"]["spec"]["containers"]]


def env_of(container):
    return {var["name"]: var for var in container.get("env", [])}


def selects(selector, labels):
    """Whether a label selector (matchLabels and matchExpressions) matches."""
    if any(labels.get(key) != value for key, value in selector.get("matchLabels", {}).items()):
        return False
    for expression in selector.get("matchExpressions", []):
        key, operator, values = expression["key"], expression["operator"], expression.get("values", [])
        if not {"In": labels.get(key) in values, "NotIn": labels.get(key) not in values,
                "Exists": key in labels, "DoesNotExist": key not in labels}[operator]:
            return False
    return True


def callers(docs, target, port):
    """Who the NetworkPolicies let reach `target`'s pods on `port`: workloads
    of the release, ANYONE, or the peers from outside it (as JSON)."""
    pods = pod_labels(docs)
    policies = [doc for doc in docs if doc["kind"] == "NetworkPolicy"
                and selects(doc["spec"]["podSelector"], pods[target])]
    if not policies:
        return {ANYONE}
    allowed = set()
    for policy in policies:
        for rule in policy["spec"].get("ingress", []):
            if "ports" in rule and port not in [p["port"] for p in rule["ports"]]:
                continue
            if not rule.get("from"):
                return {ANYONE}
            for peer in rule["from"]:
                if set(peer) == {"podSelector"}:
                    allowed |= {name for name, labels in pods.items() if selects(peer["podSelector"], labels)}
                else:
                    allowed.add(json.dumps(peer, sort_keys=True))
    return allowed


def host_port(url):
    parsed = urllib.parse.urlsplit(url)
    return parsed.hostname, parsed.port


def app_version():
    return yaml.safe_load((CHART / "Chart.yaml").read_text())["appVersion"]


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
        cls.by_kind = index(cls.docs)
        cls.with_demo = render("demoMcp.enabled=true")

    def test_the_chart_lints_strictly(self):
        linted = subprocess.run([str(HELM), "lint", "--strict", str(CHART)], capture_output=True, text=True)
        self.assertEqual(linted.returncode, 0, linted.stdout + linted.stderr)

    def test_every_object_matches_the_kubernetes_schema(self):
        external = render("gateway.mode=grpcroute", "console.server=http://adas.example:443",
                          "redis.enabled=false", "redis.url=redis://redis.example:6379/")
        from_secrets = render("gateway.mode=grpcroute", "console.server=http://adas.example:443",
                              "redis.enabled=false", "redis.urlSecret.name=redis-url",
                              "networkPolicy.gatewayFrom[0].namespaceSelector.matchLabels.gateway=yes",
                              "networkPolicy.metricsFrom[0].podSelector.matchLabels.app=prometheus",
                              "serviceAccount.create=false")
        existing = render("redis.auth.existingSecret=mine", release="two")
        for doc in [*self.docs, *self.with_demo, *external, *from_secrets, *existing]:
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
        self.assertEqual(set(workloads), {*SERVICES, "adas-redis", "adas-gateway", "adas-console"})
        for name, workload in {**index(self.with_demo)["Deployment"], **workloads}.items():
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
                deployment = self.by_kind["Deployment"][name]
                self.assertEqual(budgets[name]["spec"]["selector"], deployment["spec"]["selector"])
                self.assertGreaterEqual(deployment["spec"]["replicas"], 2)
                container = deployment["spec"]["template"]["spec"]["containers"][0]
                self.assertIn("startupProbe", container)

    def test_redis_is_durable_on_a_volume_and_checked_strictly(self):
        redis = self.by_kind["StatefulSet"]["adas-redis"]
        args = redis["spec"]["template"]["spec"]["containers"][0]["args"]
        for flag, value in zip(DURABLE_REDIS[::2], DURABLE_REDIS[1::2]):
            self.assertEqual(args[args.index(flag) + 1], value)
        self.assertTrue(redis["spec"]["volumeClaimTemplates"])
        config = self.by_kind["ConfigMap"]["adas-config"]["data"]
        self.assertEqual(config["ADAS_DURABILITY"], "strict")
        self.assertEqual(config["ADAS_ORCHESTRATOR_ADDR"], "http://adas-orchestrator:50053")
        # The templates are built into the binaries: no directory to mount.
        self.assertNotIn("ADAS_TEMPLATES_DIR", config)

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
        # Envoy (in the release): compose's file, its routes naming every
        # adas.v1 service, each cluster sent to the release's Service of it.
        envoy = yaml.safe_load(self.by_kind["ConfigMap"]["adas-gateway"]["data"]["envoy.yaml"])
        ports = {name: service["spec"]["ports"][0]["port"] for name, service in self.by_kind["Service"].items()}
        self.assertEqual(envoy_routes(envoy), {name: name_of(name) for name in grpc_services()})
        for cluster, (address, port) in envoy_clusters(envoy).items():
            self.assertEqual(ports[cluster], port, cluster)
            self.assertEqual(ports[address], port, cluster)
        self.assertEqual(with_addresses_as_names(envoy), yaml.safe_load((CHART / "files" / "envoy.yaml").read_text()),
                         "the chart's Envoy is compose's file but for its clusters' addresses")
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
        # In-cluster clients reach it by its Service's name: a host it answers.
        self.assertIn("adas-console", args[args.index("--console-host") + 1].split(","))
        self.assertEqual(self.by_kind["Service"]["adas-console"]["spec"]["ports"][0]["port"], 50070)

    def test_two_releases_in_one_namespace_share_no_object_name(self):
        # Names carry the release: a second release must not overwrite the first.
        def names(release):
            return {(doc["kind"], doc["metadata"]["name"])
                    for values in [("demoMcp.enabled=true",), ("gateway.mode=grpcroute", "console.server=http://gw:443")]
                    for doc in render(*values, release=release)}
        self.assertFalse(names("one") & names("two"))
        self.assertFalse(names("adas") & names("adas-staging"))

    def test_names_are_release_and_chart_within_a_dns_label(self):
        # Helm's convention: `<release>-<chart>`, the release alone when it
        # holds the chart's name, the overrides honoured; never past 63.
        for values, release, expected in [((), "prod", "prod-adas-intent"), ((), "adas-prod", "adas-prod-intent"),
                                          (("nameOverride=agents",), "prod", "prod-agents-intent"),
                                          (("fullnameOverride=ops",), "prod", "ops-intent")]:
            with self.subTest(release=release, values=values):
                self.assertIn(expected, index(render(*values, release=release))["Deployment"])
        long = render("demoMcp.enabled=true", release="r" * 53)
        names = {(doc["kind"], doc["metadata"]["name"]) for doc in long}
        self.assertTrue(all(len(name) <= 63 for _, name in names))
        self.assertEqual(len(names), len(long), "cut names stay distinct")

    def test_every_reference_names_an_object_of_its_own_release(self):
        # Renamed objects are only useful if what points at them follows.
        docs = render("demoMcp.enabled=true", release="two")
        kinds = index(docs)
        services = {name: service["spec"]["ports"][0]["port"] for name, service in kinds["Service"].items()}
        auth = "two-adas-auth"  # the operator's Secret, named for the release
        self.assertTrue(all(doc["metadata"]["name"].startswith("two-adas") for doc in docs))
        for name, container in containers(docs):
            pod = next(doc for doc in docs if doc["metadata"]["name"] == name and doc["kind"] in WORKLOADS)
            with self.subTest(workload=name):
                self.assertIn(pod["spec"]["template"]["spec"]["serviceAccountName"], kinds["ServiceAccount"])
                for volume in pod["spec"]["template"]["spec"].get("volumes", []):
                    self.assertIn(volume.get("configMap", {}).get("name", "two-adas-config"), kinds["ConfigMap"])
                    self.assertIn(volume.get("secret", {}).get("secretName", auth), {auth})
                for source in container.get("envFrom", []):
                    self.assertIn(source.get("configMapRef", {}).get("name", "two-adas-config"), kinds["ConfigMap"])
                    self.assertEqual(source.get("secretRef", {}).get("name", auth), auth)
                for var in container.get("env", []):
                    if "valueFrom" in var:
                        self.assertIn(var["valueFrom"]["secretKeyRef"]["name"], kinds["Secret"])
                    if var["name"] == "ADAS_REDIS_URL":
                        self.assertEqual(host_port(var["value"]), ("two-adas-redis", services["two-adas-redis"]))
                if name == "two-adas-console":
                    args = container["args"]
                    self.assertEqual(host_port(args[args.index("--server") + 1]), ("two-adas-gateway", 50050))
        for key, url in kinds["ConfigMap"]["two-adas-config"]["data"].items():
            if key.endswith("_ADDR") or key == "ADAS_DEMO_MCP_URL":
                host, port = host_port(url)
                self.assertEqual(services[host], port, key)
        envoy = yaml.safe_load(kinds["ConfigMap"]["two-adas-gateway"]["data"]["envoy.yaml"])
        for address, port in envoy_clusters(envoy).values():
            self.assertEqual(services[address], port, address)
        pods = pod_labels(docs)
        for name, budget in kinds["PodDisruptionBudget"].items():
            self.assertEqual([pod for pod, labels in pods.items()
                              if selects(budget["spec"]["selector"], labels)], [name], name)

    def test_every_object_has_the_standard_labels_and_selectors_only_stable_ones(self):
        # Tools find a release's objects by these labels; a selector is
        # immutable, so it holds only what never changes (not the version).
        grpcroute = render("gateway.mode=grpcroute", "console.server=http://gw:443")
        chart = yaml.safe_load((CHART / "Chart.yaml").read_text())
        for doc in [*self.with_demo, *grpcroute]:
            labels = doc["metadata"].get("labels", {})
            with self.subTest(kind=doc["kind"], name=doc["metadata"]["name"]):
                self.assertLessEqual(STANDARD_LABELS, set(labels))
                self.assertEqual(labels["app.kubernetes.io/instance"], "adas")
                self.assertEqual(labels["app.kubernetes.io/managed-by"], "Helm")
                self.assertEqual(labels["app.kubernetes.io/version"], chart["appVersion"])
                self.assertEqual(labels["helm.sh/chart"], f"adas-{chart['version']}")
                spec = doc.get("spec", {})
                selectors = {"Service": spec.get("selector"),
                             "NetworkPolicy": spec.get("podSelector", {}).get("matchLabels")}
                if doc["kind"] in (*WORKLOADS, "PodDisruptionBudget"):
                    selectors[doc["kind"]] = doc["spec"]["selector"]["matchLabels"]
                selector = selectors.get(doc["kind"])
                if selector is not None:
                    self.assertEqual(set(selector), STABLE_LABELS)
                if doc["kind"] in WORKLOADS:
                    template = doc["spec"]["template"]["metadata"]["labels"]
                    self.assertLessEqual(STANDARD_LABELS, set(template))
                    self.assertTrue(selects(doc["spec"]["selector"], template))
        for name in SERVICES:
            labels = self.by_kind["Deployment"][name]["metadata"]["labels"]
            self.assertEqual(labels["app.kubernetes.io/component"], name.removeprefix("adas-"))

    def test_the_schema_refuses_a_typo_and_a_wrong_type(self):
        # A misspelt or mistyped value must stop the install, not be ignored.
        for value in ["imagee.tag=1.0", "redis.auth.existingSecrte=mine", "networkPolicy.enable=false",
                      "replicas=two", "redis.enabled=maybe", "demoMcp.enabled=1", "services[0].port=grpc"]:
            with self.subTest(value=value):
                done = helm_template(value)
                self.assertNotEqual(done.returncode, 0, value)
                self.assertIn("don't meet the specifications of the schema", done.stderr)
        linted = subprocess.run([str(HELM), "lint", "--strict", str(CHART), "--set", "imagee.tag=1.0"],
                                capture_output=True, text=True)
        self.assertNotEqual(linted.returncode, 0)

    def test_the_schema_covers_every_value(self):
        # Draft-07 (what helm reads), values.yaml valid under it, and every
        # key of values.yaml declared: nothing is left unchecked.
        schema = json.loads((CHART / "values.schema.json").read_text())
        values = yaml.safe_load((CHART / "values.yaml").read_text())
        self.assertEqual(schema["$schema"], "http://json-schema.org/draft-07/schema#")
        jsonschema.Draft7Validator.check_schema(schema)
        jsonschema.Draft7Validator(schema).validate(values)

        def declared(value, node, path):
            node = schema["definitions"][node["$ref"].split("/")[-1]] if "$ref" in node else node
            if isinstance(value, dict):
                if "properties" in node:
                    self.assertIs(node.get("additionalProperties"), False, path)
                for key, item in value.items():
                    # A map (env) declares its values' schema instead of keys.
                    if not isinstance(node.get("additionalProperties"), dict):
                        self.assertIn(key, node.get("properties", {}), f"{path}.{key}")
                    declared(item, node.get("properties", {}).get(key, node.get("additionalProperties")),
                             f"{path}.{key}")
            elif isinstance(value, list):
                for item in value:
                    declared(item, node["items"], f"{path}[]")
        declared(values, schema, "")

    def test_the_redis_password_comes_only_from_a_secret(self):
        # A random password in the chart's Secret; every service gets it by
        # secretKeyRef and builds its URL with $(VAR): the password is in
        # no other object, and no ConfigMap holds a Redis URL.
        secret = self.by_kind["Secret"]["adas-redis"]
        encoded = secret["data"]["redis-password"]
        password = base64.b64decode(encoded).decode()
        self.assertGreaterEqual(len(password), 32)
        for doc in self.docs:
            if doc is not secret:
                text = yaml.safe_dump(doc)
                self.assertNotIn(password, text, doc["metadata"]["name"])
                self.assertNotIn(encoded, text, doc["metadata"]["name"])
        for config in self.by_kind["ConfigMap"].values():
            self.assertFalse([value for value in config["data"].values() if "redis://" in value])
        reference = {"secretKeyRef": {"name": "adas-redis", "key": "redis-password"}}
        for name in SERVICES:
            container = self.by_kind["Deployment"][name]["spec"]["template"]["spec"]["containers"][0]
            env = [var["name"] for var in container["env"]]
            with self.subTest(service=name):
                self.assertEqual(env_of(container)["ADAS_REDIS_PASSWORD"]["valueFrom"], reference)
                self.assertEqual(env_of(container)["ADAS_REDIS_URL"]["value"],
                                 "redis://:$(ADAS_REDIS_PASSWORD)@adas-redis:6379/")
                # $(VAR) expands only a variable defined before it.
                self.assertLess(env.index("ADAS_REDIS_PASSWORD"), env.index("ADAS_REDIS_URL"))
        redis = self.by_kind["StatefulSet"]["adas-redis"]["spec"]["template"]["spec"]["containers"][0]
        self.assertEqual(redis["args"][redis["args"].index("--requirepass") + 1], "$(REDIS_PASSWORD)")
        self.assertEqual(env_of(redis)["REDIS_PASSWORD"]["valueFrom"], reference)
        self.assertEqual(env_of(redis)["REDISCLI_AUTH"]["value"], "$(REDIS_PASSWORD)")
        # Generated, not a literal in the chart.
        again = index(render())["Secret"]["adas-redis"]["data"]["redis-password"]
        self.assertNotEqual(again, encoded)

    def test_redis_credentials_may_come_from_the_operators_secrets(self):
        # An existing password Secret replaces the chart's; an external
        # Redis' URL may come from a Secret or stay a plain value.
        existing = render("redis.auth.existingSecret=mine", "redis.auth.existingSecretKey=pw")
        self.assertNotIn("Secret", index(existing))
        for name, container in containers(existing):
            if name in SERVICES or name == "adas-redis":
                variable = "REDIS_PASSWORD" if name == "adas-redis" else "ADAS_REDIS_PASSWORD"
                self.assertEqual(env_of(container)[variable]["valueFrom"],
                                 {"secretKeyRef": {"name": "mine", "key": "pw"}}, name)
        external = render("redis.enabled=false", "redis.urlSecret.name=ext", "redis.urlSecret.key=url")
        self.assertNotIn("StatefulSet", index(external))
        plain = render("redis.enabled=false", "redis.url=redis://redis.example:6379/")
        for name, container in containers(external):
            if name in SERVICES:
                self.assertEqual(env_of(container)["ADAS_REDIS_URL"]["valueFrom"],
                                 {"secretKeyRef": {"name": "ext", "key": "url"}})
                self.assertNotIn("ADAS_REDIS_PASSWORD", env_of(container))
        for name, container in containers(plain):
            if name in SERVICES:
                self.assertEqual(env_of(container)["ADAS_REDIS_URL"]["value"], "redis://redis.example:6379/")

    def test_network_policies_admit_only_the_callers(self):
        # Redis and the demo MCP server for the services only; a service's
        # gRPC port for its peers and the gateway; every other port closed.
        docs = self.with_demo
        for target, port in [("adas-redis", 6379), ("adas-demo-mcp", 50060)]:
            self.assertEqual(callers(docs, target, port), set(SERVICES), target)
        for name in SERVICES:
            port = index(docs)["Service"][name]["spec"]["ports"][0]["port"]
            self.assertEqual(callers(docs, name, port), {*SERVICES, "adas-gateway"}, name)
            self.assertEqual(callers(docs, name, 9464), {ANYONE}, "the metrics scraper, where it runs")
        self.assertEqual(callers(docs, "adas-gateway", 50050), {ANYONE})
        self.assertEqual(callers(docs, "adas-console", 50070), {ANYONE})
        for name in pod_labels(docs):
            self.assertEqual(callers(docs, name, 6380), set(), f"{name}: a port it does not serve is closed")
        for policy in index(docs)["NetworkPolicy"].values():
            self.assertEqual(policy["spec"]["policyTypes"], ["Ingress"], "egress stays open: remote MCP servers")
        # grpcroute: the Gateway's proxies as the operator names them.
        gateway = {"namespaceSelector": {"matchLabels": {"gateway": "yes"}}}
        routed = render("gateway.mode=grpcroute", "console.server=http://gw:443",
                        "networkPolicy.gatewayFrom[0].namespaceSelector.matchLabels.gateway=yes")
        self.assertEqual(callers(routed, "adas-gate", 50054), {*SERVICES, json.dumps(gateway, sort_keys=True)})
        self.assertNotIn("NetworkPolicy", index(render("networkPolicy.enabled=false")))

    def test_every_pod_runs_as_the_release_service_account_without_a_token(self):
        # Nothing in ADAS calls the Kubernetes API: no token to steal, and
        # not the namespace's default account.
        account = self.by_kind["ServiceAccount"]["adas"]
        self.assertIs(account["automountServiceAccountToken"], False)
        for docs, expected in [(self.with_demo, "adas"),
                               (render("serviceAccount.create=false", "serviceAccount.name=ops"), "ops")]:
            for doc in docs:
                if doc["kind"] in WORKLOADS:
                    pod = doc["spec"]["template"]["spec"]
                    with self.subTest(workload=doc["metadata"]["name"], account=expected):
                        self.assertEqual(pod["serviceAccountName"], expected)
                        self.assertIs(pod["automountServiceAccountToken"], False)

    def test_the_image_tag_is_the_chart_app_version(self):
        # `latest` moves under a running release; appVersion does not.
        for name, container in containers(self.with_demo):
            self.assertFalse(container["image"].endswith(":latest"), name)
            if container.get("command", [""])[0].startswith("/opt/adas/"):
                self.assertEqual(container["image"], f"adas:{app_version()}", name)
        pinned = render("image.repository=registry.example/adas", "image.tag=1.2.3")
        images = {container["image"] for name, container in containers(pinned) if name in SERVICES}
        self.assertEqual(images, {"registry.example/adas:1.2.3"})

    def test_the_demo_server_is_off_by_default_and_nothing_points_at_it(self):
        # Off, it leaves no trace: no object, no ADAS_DEMO_MCP_URL to call.
        text = yaml.safe_dump_all(self.docs)
        self.assertNotIn("demo-mcp", text)
        self.assertNotIn("ADAS_DEMO_MCP_URL", text)
        on = index(self.with_demo)
        self.assertIn("adas-demo-mcp", on["Deployment"])
        url = on["ConfigMap"]["adas-config"]["data"]["ADAS_DEMO_MCP_URL"]
        self.assertEqual(url, "http://adas-demo-mcp:50060/mcp")
        self.assertEqual(on["Service"]["adas-demo-mcp"]["spec"]["ports"][0]["port"], 50060)

    def test_envoy_spreads_each_request_over_every_replica(self):
        # A gRPC client keeps one connection: balanced per connection (a
        # ClusterIP), one replica would take it all. Envoy resolves a
        # headless Service to every pod and balances each request.
        envoy = yaml.safe_load(self.by_kind["ConfigMap"]["adas-gateway"]["data"]["envoy.yaml"])
        services, pods = self.by_kind["Service"], pod_labels(self.docs)
        for cluster in envoy["static_resources"]["clusters"]:
            address, port = envoy_clusters({"static_resources": {"clusters": [cluster]}})[cluster["name"]]
            with self.subTest(cluster=cluster["name"]):
                self.assertEqual((cluster["type"], cluster["lb_policy"]), ("STRICT_DNS", "ROUND_ROBIN"))
                options = cluster["typed_extension_protocol_options"]
                self.assertIn("http2_protocol_options",
                              options["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]["explicit_http_config"])
                headless = services[address]["spec"]
                self.assertEqual(headless["clusterIP"], "None")
                self.assertEqual(headless["ports"][0]["port"], port)
                self.assertEqual([pod for pod, labels in pods.items() if selects({"matchLabels": headless["selector"]}, labels)],
                                 [cluster["name"]])
        # The peers' addresses stay stable virtual IPs.
        for key, url in self.by_kind["ConfigMap"]["adas-config"]["data"].items():
            if key.endswith("_ADDR"):
                self.assertNotIn("clusterIP", services[host_port(url)[0]]["spec"], key)
        compose = yaml.safe_load((CHART / "files" / "envoy.yaml").read_text())
        for cluster in compose["static_resources"]["clusters"]:
            self.assertEqual((cluster["type"], cluster["lb_policy"]), ("STRICT_DNS", "ROUND_ROBIN"))


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
    """Envoy cluster → (the host it sends to, the port)."""
    clusters = {}
    for cluster in envoy["static_resources"]["clusters"]:
        address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]
        clusters[cluster["name"]] = (address["socket_address"]["address"], address["socket_address"]["port_value"])
    return clusters


def with_addresses_as_names(envoy):
    """The config with each cluster addressed by its name, as compose does."""
    envoy = json.loads(json.dumps(envoy))
    for cluster in envoy["static_resources"]["clusters"]:
        endpoint = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
        endpoint["address"]["socket_address"]["address"] = cluster["name"]
    return envoy

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
        ports = {name: (name, int(self.services[name]["command"][-1].rsplit(":", 1)[1])) for name in SERVICES}
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
