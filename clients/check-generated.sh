#!/usr/bin/env bash
# Fails when the committed generated code is not what generate.sh makes from
# proto/ now (a proto changed without regenerating, or a generated file edited
# by hand): runs generate.sh on a temporary copy of clients/ and diffs every
# generated directory against the checkout's. Needs what generate.sh needs
# (`npm ci` done in clients/typescript: its node_modules is shared, not copied).
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd .. && pwd)"
generated=(go/adas python/gen typescript/src/gen typescript/dist)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# generate.sh reads ../proto from its own directory, as in the checkout.
ln -s "$root/proto" "$scratch/proto"
mkdir "$scratch/clients"
tar --exclude=./typescript/node_modules --exclude=__pycache__ --exclude='*.egg-info' --exclude=./python/build \
  -cf - . | tar -C "$scratch/clients" -xf -
ln -s "$PWD/typescript/node_modules" "$scratch/clients/typescript/node_modules"
BUF="${BUF:-$(bash "$root/e2e/tools/buf.sh")}" bash "$scratch/clients/generate.sh"
stale=0
for dir in "${generated[@]}"; do
  if ! diff -r --exclude=__pycache__ "$dir" "$scratch/clients/$dir" >"$scratch/diff" 2>&1; then
    echo "check-generated: clients/$dir is not what generate.sh makes from proto/:" >&2
    head -n 40 "$scratch/diff" >&2
    stale=1
  fi
done
if [ "$stale" -ne 0 ]; then
  echo "check-generated: run 'bash clients/generate.sh' and commit the result" >&2
  exit 1
fi
echo "check-generated: ${generated[*]} match proto/"
