#!/usr/bin/env bash
# Fuzzes the front end with libFuzzer (clang, ASan) for SECONDS (default 1800) per target:
# fuzz_parse_fmt (parse + fmt round trip) and fuzz_sema (compile to IR), or only TARGET.
# Inputs up to 1 MB (-max_len). Seeds: every golden, example and library .kcontract and
# tests/fuzz/corpus/. Crashers land in tests/fuzz/crashers/; turn each one into
# tests/fuzz/regressions/NAME.kcontract once fixed (docs/testing.md, "Fuzzing").
#   scripts/fuzz.sh [SECONDS] [parse_fmt|sema]
# KC_FUZZ_JOBS (default 2): processes at a time; KC_FUZZ_SETUP=0 skips scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-1800}"
TARGETS="${2:-parse_fmt sema}"
[[ "${KC_FUZZ_SETUP:-1}" == 0 ]] || bash scripts/setup.sh
cmake -S . -B build-fuzz -G Ninja -DKC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,fuzzer-no-link -fno-omit-frame-pointer" >/dev/null
for t in $TARGETS; do cmake --build build-fuzz -j "${KC_JOBS:-$(nproc)}" --target "fuzz_$t"; done
mkdir -p tests/fuzz/corpus-run tests/fuzz/crashers
find tests/golden examples stdlib contracts -name '*.kcontract' -exec cp {} tests/fuzz/corpus-run/ \; 2>/dev/null || true
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp"
for t in $TARGETS; do
  # New inputs go to corpus-run/ (ignored by git); tests/fuzz/corpus/ is only read. Merge
  # what is worth keeping into it afterwards: -merge=1 tests/fuzz/corpus tests/fuzz/corpus-run.
  ./build-fuzz/tests/fuzz/"fuzz_$t" tests/fuzz/corpus-run tests/fuzz/corpus \
    -dict=tests/fuzz/kcontract.dict -max_len=1048576 -max_total_time="$SECONDS_TO_RUN" \
    -artifact_prefix="tests/fuzz/crashers/$t-" -print_final_stats=1 -fork="${KC_FUZZ_JOBS:-2}" -ignore_crashes=1 \
    -timeout=10 -rss_limit_mb=2048
done
