#!/usr/bin/env bash
# The conversation harness against a real model: every scripted conversation
# through `adas up` with the model ADAS_LLM_* names (see README "Models").
#
#   ADAS_LLM_BASE_URL=http://127.0.0.1:11434/v1 ADAS_LLM_MODEL=qwen2.5 bash e2e/eval.sh
#   ADAS_LLM_PROVIDER=anthropic ADAS_LLM_BASE_URL=https://api.anthropic.com \
#     ADAS_LLM_MODEL=claude-sonnet-4-5 ADAS_LLM_API_KEY=env:ANTHROPIC_API_KEY bash e2e/eval.sh
#
# Add ADAS_LLM_RECORD=dir to keep the exchanges; ADAS_LLM_REPLAY=dir replays them
# (no network) so a team can pin a model's behaviour in its own CI.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ADAS_LLM_BASE_URL:-}" ] && [ -z "${ADAS_LLM_CONFIG:-}" ]; then
  echo "eval.sh: set ADAS_LLM_BASE_URL (and ADAS_LLM_MODEL) or ADAS_LLM_CONFIG" >&2
  exit 2
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/adas-target}"
venv="${ADAS_VENV:-$HOME/.cache/adas-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r e2e/python/requirements.txt
fi
cargo build --locked -p adas-cli
ADAS_BIN_DIR="$CARGO_TARGET_DIR/debug" "$venv/bin/python" e2e/conversations/harness.py --model env "$@"
