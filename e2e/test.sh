#!/usr/bin/env bash
# Runs every test of the suite: Rust unit, conformance and binary tests, the
# Python client generated from proto/ against the real binaries, the client
# packages of clients/ (their committed generated code checked against proto/,
# Go compiled, Python and TypeScript installed fresh, Python's smoke test),
# then the TypeScript package driving the suite and the web console in
# headless Chromium.
#
# Needs nothing running: tests start their own private redis-server on free
# loopback ports (never the machine's 6379). Installs redis-server, openssl,
# chromium, Go and the protoc plugins (apt), the Python client's packages (a
# venv under ~/.cache) and the TypeScript packages (npm ci, from the lock
# files of clients/typescript and e2e/ts) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/adas-target}"
venv="${ADAS_VENV:-$HOME/.cache/adas-venv}"

# Installs a Debian package when its command is missing.
install() {
  local sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}
need() {
  local command="$1" package="$2"
  if ! command -v "$command" >/dev/null 2>&1; then
    echo "test.sh: $command not found, installing $package"
    install "$package"
  fi
}
# A Debian package with no command of its own (a library's sources).
need_package() {
  if ! dpkg -s "$1" >/dev/null 2>&1; then
    echo "test.sh: installing $1"
    install "$1"
  fi
}
need redis-server redis-server
# The TLS tests make their private CA and certificates with the openssl command.
need openssl openssl
# The console test drives Debian's Chromium (playwright-core, no browser download).
need chromium chromium
# The client packages: Debian's Go toolchain and protoc plugins, and the Go
# libraries the Go client compiles against (offline, in GOPATH mode).
need go golang-go
need protoc-gen-go protoc-gen-go
need protoc-gen-go-grpc protoc-gen-go-grpc
need grpc_python_plugin protobuf-compiler-grpc
for package in golang-google-grpc-dev golang-google-protobuf-dev golang-google-genproto-dev; do
  need_package "$package"
done

stamp="$venv/.requirements.sha256"
wanted="$(sha256sum e2e/python/requirements.txt | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "test.sh: preparing the Python client venv in $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r e2e/python/requirements.txt
  echo "$wanted" >"$stamp"
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# Each step prints how long it took (CI must stay within its budget).
step_name=""
step_started=$SECONDS
step() {
  if [ -n "$step_name" ]; then
    echo "test.sh: '$step_name' took $((SECONDS - step_started)) s"
  fi
  step_name="$1"
  step_started=$SECONDS
}

# Binary tests spawn the suite's binaries: build them first, same profile as the tests.
step "cargo build"
cargo build --workspace --bins --locked
# The MCP interop test runs a peer server written with the Python SDK from the venv.
step "cargo test"
ADAS_PYTHON="$venv/bin/python" cargo test --workspace --locked 2>&1 | tee "$log"

# The intent table's accuracy, shown (cargo captures a passing test's output).
cargo test --locked -q -p adas-nlu --test intent_table intent_table_accuracy -- --nocapture 2>&1 | grep -E "accuracy|MISS" || true

step "python e2e"
ADAS_BIN_DIR="$CARGO_TARGET_DIR/debug" "$venv/bin/python" -m unittest discover -s e2e/python -p 'test_*.py' -v 2>&1 | tee -a "$log"

# The client packages (clients/): the code buf generates from proto/ is
# committed, and must be what clients/generate.sh makes now (a proto changed
# without regenerating fails here); the Go one compiles and vets; the Python
# and TypeScript ones install from the checkout into fresh environments with
# their own package managers alone (the registries may be used): the Python
# one passes its smoke test against `adas up` and mypy --strict on its
# helpers, the TypeScript one is imported by node (and is the next step's
# client).
step "client packages (go, python, typescript)"
(cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error)
ADAS_VENV="$venv" bash clients/check-generated.sh
gopath="$(mktemp -d)"
mkdir -p "$gopath/src/adas.dev"
ln -s "$PWD/clients/go" "$gopath/src/adas.dev/go"
(cd "$gopath/src/adas.dev/go" \
  && export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOCACHE="$HOME/.cache/adas-go-build" GOFLAGS= \
  && go vet ./... && go test ./...)
clients="$PWD/clients"
python_client="$(mktemp -d)"
echo "test.sh: pip install clients/python into a fresh venv ($python_client), then its smoke test"
python3 -m venv "$python_client"
"$python_client/bin/pip" install -q --disable-pip-version-check "$clients/python"
ADAS_BIN_DIR="$CARGO_TARGET_DIR/debug" \
  "$python_client/bin/python" -m unittest discover -s clients/python/tests -v 2>&1 | tee -a "$log"
echo "test.sh: mypy --strict on the installed adas_client (pinned mypy and stubs)"
"$python_client/bin/pip" install -q --disable-pip-version-check \
  mypy==2.4.1 types-grpcio==1.85.0.20261028 types-protobuf==7.35.1.20260906
# From the venv, so that the installed package is what mypy reads.
(cd "$python_client" && bin/mypy --config-file "$clients/python/pyproject.toml" --cache-dir /dev/null -p adas_client)
ts_client="$(mktemp -d)"
echo "test.sh: npm install --install-links clients/typescript into a fresh project ($ts_client), then import it"
echo '{"private": true, "type": "module"}' >"$ts_client/package.json"
# --install-links copies the package as its tarball would (a plain directory
# install is a symlink, whose imports resolve beside the checkout, not in the
# project); npm installs the peer dependencies beside it.
(cd "$ts_client" && npm install --install-links --prefer-offline --no-audit --no-fund --loglevel=error "$clients/typescript")
import_one='import { create } from "@bufbuild/protobuf"; import { JobSchema, JobStatus } from "@adas/client";
const job = create(JobSchema, { name: "skills/s/jobs/1", status: JobStatus.PAUSED });
console.log(`test.sh: the installed @adas/client made a ${job.$typeName}: ${job.name}, status ${job.status}`);'
(cd "$ts_client" && node --input-type=module -e "$import_one")
rm -rf "$gopath" "$python_client" "$ts_client"

# The TypeScript client package driving the suite, and the console: packages
# pinned by the lock files, then node's test runner.
step "typescript client and console (chromium)"
(cd e2e/ts && npm ci --no-audit --no-fund --loglevel=error)
ADAS_BIN_DIR="$CARGO_TARGET_DIR/debug" ADAS_CHROMIUM="$(command -v chromium)" \
  npm test --prefix e2e/ts 2>&1 | tee -a "$log"

step ""

sum() { grep -oE "$1" "$log" | grep -oE '[0-9]+' | awk '{ total += $1 } END { print total + 0 }'; }
rust_passed=$(sum 'test result: ok\. [0-9]+ passed')
python_ran=$(sum '^Ran [0-9]+ test')
ts_passed=$(sum '^# pass [0-9]+')
echo "all: $((rust_passed + python_ran + ts_passed)) passed, 0 failed"
