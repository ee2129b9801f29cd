#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest: unit, golden, end-to-end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR="${KC_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${KC_JOBS:-$(nproc)}"
