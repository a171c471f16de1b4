#!/usr/bin/env bash
# Generates the three client packages from proto/ (clients/buf.gen.yaml) with
# the pinned buf and no network. Needs Debian's protoc-gen-go,
# protoc-gen-go-grpc and grpc_python_plugin (packages protoc-gen-go,
# protoc-gen-go-grpc, protobuf-compiler-grpc), `npm ci` done in
# clients/typescript (protoc-gen-es from its lock file), and a Python with
# grpcio-tools (the tests' venv by default, ADAS_VENV names another).
set -euo pipefail
cd "$(dirname "$0")"
buf="${BUF:-$(bash ../e2e/tools/buf.sh)}"
venv="${ADAS_VENV:-$HOME/.cache/adas-venv}"
# buf runs `python3 -m grpc_tools.protoc` for the Python plugins.
[ -x "$venv/bin/python3" ] && export PATH="$venv/bin:$PATH"
"$buf" generate
