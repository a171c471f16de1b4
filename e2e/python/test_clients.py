"""The client packages of clients/ are checked as data, not trusted: each
installs from a checkout with its own package manager alone, so the code
generated from proto/ is committed (not ignored, and every generated
directory is one clients/check-generated.sh compares); the Python wheel
ships the PEP 561 marker, the generated .pyi and the helpers, and names its
dependencies with ranges; the TypeScript package takes its runtime libraries
as peer ranges and ships a committed dist/; the Go module path is the one the
protos' go_package names."""

import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import unittest
import zipfile

import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients"
PUBLIC_PROTOS = sorted((ROOT / "proto" / "adas").glob("**/*.proto"))
TS_RUNTIME = ("@bufbuild/protobuf", "@connectrpc/connect")


def checked_directories():
    """The directories check-generated.sh regenerates and compares."""
    script = (CLIENTS / "check-generated.sh").read_text()
    return re.search(r"(?m)^generated=\(([^)]*)\)", script).group(1).split()


class GeneratedCode(unittest.TestCase):
    def test_every_output_is_committed_and_compared(self):
        config = yaml.safe_load((CLIENTS / "buf.gen.yaml").read_text())
        outputs = {plugin["out"] for plugin in config["plugins"]}
        # dist/ is made from src/gen by tsc (generate.sh), and committed too.
        self.assertEqual(set(checked_directories()), outputs | {"typescript/dist"})
        for out in outputs | {"typescript/dist"}:
            files = [path for path in (CLIENTS / out).rglob("*") if path.is_file() and "__pycache__" not in path.parts]
            self.assertTrue(files, f"clients/{out} holds the generated code (run clients/generate.sh)")
            if shutil.which("git") and (ROOT / ".git").exists():
                ignored = subprocess.run(["git", "check-ignore", "--no-index", *map(str, files)], cwd=ROOT,
                                         capture_output=True, text=True).stdout.split()
                self.assertEqual(ignored, [], f"clients/{out} is committed, not ignored")

    def test_ci_compares_them(self):
        test_sh = (ROOT / "e2e" / "test.sh").read_text()
        step = test_sh[test_sh.index('step "client packages'):test_sh.index('step "typescript client')]
        self.assertIn("bash clients/check-generated.sh", step)
        self.assertNotIn("clients/generate.sh", step, "CI checks the committed code; regenerating would hide it")


class PythonPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.project = tomllib.loads((CLIENTS / "python" / "pyproject.toml").read_text())["project"]
        # The wheel as pip builds it, from a copy: the build leaves build/ and
        # *.egg-info behind, which the checkout need not hold.
        scratch = pathlib.Path(tempfile.mkdtemp(prefix="adas-wheel-"))
        cls.addClassCleanup(shutil.rmtree, scratch)
        shutil.copytree(CLIENTS / "python", scratch / "python", ignore=shutil.ignore_patterns("build", "*.egg-info"))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                        "-w", str(scratch / "wheel"), str(scratch / "python")], check=True, capture_output=True)
        (wheel,) = (scratch / "wheel").glob("*.whl")
        cls.files = set(zipfile.ZipFile(wheel).namelist())

    def test_dependencies_are_ranges(self):
        for text in self.project["dependencies"]:
            requirement = Requirement(text)
            operators = {spec.operator for spec in requirement.specifier}
            self.assertIn(">=", operators, f"{text}: a lower bound")
            self.assertFalse(operators & {"==", "==="}, f"{text}: a range, not a pin")
        self.assertEqual({Requirement(text).name for text in self.project["dependencies"]},
                         {"protobuf", "grpcio", "googleapis-common-protos"})

    def test_protobuf_floor_is_the_generators(self):
        # The generated modules refuse an older runtime than the protoc that made them.
        generated = (CLIENTS / "python" / "gen" / "adas" / "v1" / "job_pb2.py").read_text()
        made_by = Version(re.search(r"Protobuf Python Version: (\S+)", generated).group(1))
        (protobuf,) = [Requirement(text) for text in self.project["dependencies"] if text.startswith("protobuf")]
        self.assertIn(made_by, protobuf.specifier)
        self.assertEqual(min(Version(spec.version) for spec in protobuf.specifier if spec.operator == ">="), made_by)

    def test_the_wheel_is_typed_and_has_the_helpers(self):
        self.assertIn("adas/v1/py.typed", self.files)
        self.assertIn("adas_client/py.typed", self.files)
        self.assertIn("adas_client/__init__.py", self.files)
        for proto in PUBLIC_PROTOS:
            module = f"adas/v1/{proto.stem}_pb2"
            self.assertIn(f"{module}.py", self.files)
            self.assertIn(f"{module}.pyi", self.files, "the generated type hints ship")
            if re.search(r"(?m)^service ", proto.read_text()):
                self.assertIn(f"{module}_grpc.py", self.files)


class TypeScriptPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.package = json.loads((CLIENTS / "typescript" / "package.json").read_text())

    def test_runtime_libraries_are_peer_ranges(self):
        peers = self.package.get("peerDependencies", {})
        for name in TS_RUNTIME:
            self.assertRegex(peers.get(name, ""), r"^\^\d+\.\d+\.\d+$", f"{name}: a caret range")
            # Built and tested against the range's floor, pinned for its own build.
            self.assertEqual(self.package["devDependencies"].get(name), peers[name][1:])
            self.assertNotIn(name, self.package.get("dependencies", {}), "one copy: the application's")

    def test_ships_the_committed_dist(self):
        self.assertEqual(self.package["files"], ["dist"])
        entry = self.package["exports"]["."]
        for path in (self.package["main"], self.package["types"], entry["default"], entry["types"]):
            self.assertTrue(path.removeprefix("./").startswith("dist/"), path)
            self.assertTrue((CLIENTS / "typescript" / path).is_file(), f"{path} is committed")
        # npm runs `prepare` in the package's directory on a directory install
        # without installing its devDependencies there: tsc is missing in a
        # fresh checkout and the install fails. dist/ is committed instead.
        self.assertNotIn("prepare", self.package.get("scripts", {}))
        helpers = (CLIENTS / "typescript" / "dist" / "helpers.d.ts").read_text()
        for name in ("apiKeyInterceptor", "waitForJob", "waitUntilPausedOrDone", "errorDetails"):
            self.assertIn(f"export declare function {name}", helpers)


class GoModule(unittest.TestCase):
    def test_module_path_matches_go_package(self):
        module = re.search(r"(?m)^module (\S+)$", (CLIENTS / "go" / "go.mod").read_text()).group(1)
        for proto in PUBLIC_PROTOS:
            go_package = re.search(r'option go_package = "([^"]+)";', proto.read_text())
            self.assertIsNotNone(go_package, f"{proto.name} names its go_package")
            import_path, name = go_package.group(1).split(";")
            self.assertTrue(import_path.startswith(module + "/"), f"{proto.name}: {import_path} is in {module}")
            directory = CLIENTS / "go" / import_path.removeprefix(module + "/")
            generated = directory / f"{proto.stem}.pb.go"
            self.assertTrue(generated.is_file(), f"{generated} is committed")
            self.assertRegex(generated.read_text(), rf"(?m)^package {name}$")


if __name__ == "__main__":
    unittest.main()
