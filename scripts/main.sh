#!/usr/bin/env bash
# The main job: install what is missing, build, and check the example contracts.
# Today that means: every example contract parses and is in canonical form. Running the
# example kernels against their contracts joins this script with the checker.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR="${KC_BUILD_DIR:-build}"
mapfile -t examples < <(find examples -name '*.kcontract' | sort)
echo "== kcontract parse: ${#examples[@]} example contracts =="
for f in "${examples[@]}"; do
  "$BUILD_DIR/kcontract" parse "$f" >/dev/null
  echo "  ok  $f"
done
echo "== kcontract fmt --check =="
"$BUILD_DIR/kcontract" fmt --check "${examples[@]}"
echo "all ${#examples[@]} example contracts parse and are in canonical form"
