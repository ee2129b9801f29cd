#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest: unit, golden, end-to-end).
# Says how long each step took, so a slow CI run shows where the time went.
set -euo pipefail
cd "$(dirname "$0")/.."
step() {  # NAME COMMAND...
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "test.sh: $name took $((SECONDS - start)) s"
}
step setup bash scripts/setup.sh
step build bash scripts/build.sh
BUILD_DIR="${KC_BUILD_DIR:-build}"
step ctest ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${KC_JOBS:-$(nproc)}"
