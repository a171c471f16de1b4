#!/usr/bin/env bash
# Prints the path of the pinned buf (installed from npm under ~/.cache/adas-tools
# when missing): .ci/run lints with it, clients/generate.sh generates the
# client packages with it. Kept outside e2e/ts's lock file because the npm package pulls
# a platform binary per OS as optional dependencies, which a lock made on one
# platform cannot always record.
set -euo pipefail
buf_version="1.75.0"
tools="${ADAS_TOOLS_DIR:-$HOME/.cache/adas-tools}"
buf="$tools/node_modules/.bin/buf"
if [ ! -x "$buf" ] || [ "$("$buf" --version 2>/dev/null)" != "$buf_version" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --silent --no-audit --no-fund "@bufbuild/buf@$buf_version" >/dev/null
fi
echo "$buf"
