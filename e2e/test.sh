#!/usr/bin/env bash
# Runs every test of the suite: Rust unit, conformance and binary tests, then the
# Python client generated from proto/ against the real binaries.
#
# Needs nothing running: tests start their own private redis-server on free
# loopback ports (never the machine's 6379). Installs redis-server and openssl (apt) and the
# Python client's packages (a venv under ~/.cache) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/adas-target}"
venv="${ADAS_VENV:-$HOME/.cache/adas-venv}"

if ! command -v redis-server >/dev/null 2>&1; then
  echo "test.sh: redis-server not found, installing it"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq redis-server >/dev/null
fi

# The TLS tests make their private CA and certificates with the openssl command.
if ! command -v openssl >/dev/null 2>&1; then
  echo "test.sh: openssl not found, installing it"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq openssl >/dev/null
fi

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

# Binary tests spawn the suite's binaries: build them first, same profile as the tests.
cargo build --workspace --bins --locked
# The MCP interop test runs a peer server written with the Python SDK from the venv.
ADAS_PYTHON="$venv/bin/python" cargo test --workspace --locked 2>&1 | tee "$log"

# The intent table's accuracy, shown (cargo captures a passing test's output).
cargo test --locked -q -p adas-nlu --test intent_table intent_table_accuracy -- --nocapture 2>&1 | grep -E "accuracy|MISS" || true

ADAS_BIN_DIR="$CARGO_TARGET_DIR/debug" "$venv/bin/python" -m unittest discover -s e2e/python -p 'test_*.py' -v 2>&1 | tee -a "$log"

sum() { grep -oE "$1" "$log" | grep -oE '[0-9]+' | awk '{ total += $1 } END { print total + 0 }'; }
rust_passed=$(sum 'test result: ok\. [0-9]+ passed')
python_ran=$(sum '^Ran [0-9]+ test')
echo "all: $((rust_passed + python_ran)) passed, 0 failed"
