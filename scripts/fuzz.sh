#!/usr/bin/env bash
# Fuzzes parse + fmt with libFuzzer (clang, ASan) for SECONDS (default 1800) on 2 workers.
# Seeds: every golden and example .kcontract. Crashers land in tests/fuzz/crashers/; turn
# each one into a golden test under tests/golden/parse/ once fixed.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-1800}"
bash scripts/setup.sh
cmake -S . -B build-fuzz -G Ninja -DKC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,fuzzer-no-link -fno-omit-frame-pointer" >/dev/null
cmake --build build-fuzz -j "${KC_JOBS:-$(nproc)}" --target fuzz_parse_fmt
mkdir -p tests/fuzz/corpus-run tests/fuzz/crashers
find tests/golden examples stdlib contracts -name '*.kcontract' -exec cp {} tests/fuzz/corpus-run/ \; 2>/dev/null || true
LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp" ./build-fuzz/tests/fuzz/fuzz_parse_fmt tests/fuzz/corpus-run \
  -dict=tests/fuzz/kcontract.dict -max_len=4096 -max_total_time="$SECONDS_TO_RUN" \
  -artifact_prefix=tests/fuzz/crashers/ -print_final_stats=1 -fork="${KC_FUZZ_JOBS:-2}" -ignore_crashes=1 -timeout=10
