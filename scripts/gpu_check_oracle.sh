#!/usr/bin/env bash
# The compiled oracle on a GPU machine (docs/oracle.md, "The compiled oracle"; issue 24), from
# the repository root with the bundle carried (scripts/bundle.sh build):
#   1. agreement: `kcontract oracle --target cuda` over every standard op and every example
#      contract (cases up to 256 MiB), the CUDA oracle against the f64 interpreter cell for
#      cell, several contracts at once (nvcc builds each program once);
#   2. check_bench --backend cuda --own --oracle-baseline: the examples' standard and own
#      checks with the compiled oracle, and with the interpreter in the same run;
#   3. check_bench on the matmul example against bench/oracle/gemm4096.kcontract (its own
#      contract's oracle at M = N = K = 4096, f32), compiled oracle and interpreter.
# Results go to $OUT (or a temporary folder); the exit status is nonzero when a cell
# disagrees. STEPS="1" runs the agreement alone (default: 1 2 3).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
BENCH="${BENCH:-$root/bundle/check_bench}"
out="${OUT:-$(mktemp -d)}"
export KC_CACHE_DIR="${KC_CACHE_DIR:-$out/cache}"
jobs="${JOBS:-12}"
rc=0
nvidia-smi -L || true

echo "== 1. agreement (cuda oracle vs interpreter), $jobs contracts at a time"
mkdir -p "$out/agree"
start=$(date +%s)
ls stdlib/ops/*.kcontract examples/*/*.kcontract |
  xargs -P "$jobs" -I{} sh -c '"$1" oracle --target cuda --max-memory 256M "$2" > "$3/agree/$(echo "$2" | tr / _).txt" 2>&1 || echo "DISAGREE OR ERROR: $2"' _ "$KC" {} "$out" |
  tee "$out/agree_failures.txt"
[[ -s "$out/agree_failures.txt" ]] && rc=1
cat "$out"/agree/*.txt > "$out/agree.txt"
echo "agreement: $(grep -c 'all agree' "$out/agree.txt") contracts agree, $(grep -c 'DIFFER' "$out/agree.txt") differ, $(grep -c 'interpreter only' "$out/agree.txt") not lowered; $(( $(date +%s) - start )) s"
grep -E "DIFFER|ERROR|interpreter only" "$out/agree.txt" | head -40

[[ " ${STEPS:-1 2 3} " == *" 2 "* ]] || { echo "(steps 2 and 3 not asked for: STEPS=${STEPS})"; exit $rc; }
echo "== 2. check_bench --backend cuda --own --oracle-baseline"
"$BENCH" --backend cuda --own --oracle-baseline > "$out/bench.txt" 2>&1 || true
cat "$out/bench.txt"

echo "== 3. matmul.cu against bench.gemm4096@1 (M = N = K = 4096, f32): the check vs a 5-seed allclose"
"$BENCH" --backend cuda --oracle-baseline bench/oracle/gemm4096.kcontract examples/matmul/matmul.cu > "$out/gemm4096.txt" 2>&1 || true
cat "$out/gemm4096.txt"
exit $rc
