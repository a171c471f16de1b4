#!/usr/bin/env bash
# Generates the three client packages from proto/ (clients/buf.gen.yaml) with
# the pinned buf and no network, and builds the TypeScript package's dist/.
# All of it is committed, so that a checkout installs with each language's
# package manager alone; check-generated.sh fails when it is stale. Needs
# Debian's protoc-gen-go, protoc-gen-go-grpc and grpc_python_plugin (packages
# protoc-gen-go, protoc-gen-go-grpc, protobuf-compiler-grpc), `npm ci` done in
# clients/typescript (protoc-gen-es and tsc from its lock file), and a Python
# with grpcio-tools (the tests' venv by default, ADAS_VENV names another).
# BUF names a buf binary instead of the pinned one (check-generated.sh).
set -euo pipefail
cd "$(dirname "$0")"
buf="${BUF:-$(bash ../e2e/tools/buf.sh)}"
venv="${ADAS_VENV:-$HOME/.cache/adas-venv}"
# buf runs `python3 -m grpc_tools.protoc` for the Python plugins.
[ -x "$venv/bin/python3" ] && export PATH="$venv/bin:$PATH"
"$buf" generate
# PEP 561: the generated messages' .pyi are the package's types. buf's
# `clean` empties python/gen first, so the marker is written here each time.
: >python/gen/adas/v1/py.typed
# dist/ is what a directory or tarball install of @adas/client ships (npm runs
# no build for those): rebuilt from scratch, so a removed proto leaves no file.
rm -rf typescript/dist
(cd typescript && node_modules/.bin/tsc -p .)
