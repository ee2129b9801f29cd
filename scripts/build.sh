#!/usr/bin/env bash
# Configures and builds kcontract into build/ (or $KC_BUILD_DIR): every target, or only the
# targets named (scripts/main.sh builds kcontract alone; scripts/test.sh everything).
#   scripts/build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${KC_BUILD_DIR:-build}"
JOBS="${KC_JOBS:-$(nproc)}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" ${1:+--target "$@"}
