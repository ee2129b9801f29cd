#!/usr/bin/env bash
# What the cell costs (issue 19, docs/security.md): standard checks timed with --sandbox auto
# (every layer) and --sandbox off, in turn (auto off auto off ...), RUNS pairs each, in one run.
# Prints each pair's ratio and the median ratio per check. Kernels are built once first.
#   bench/sandbox_bench.sh [RUNS]            (default 3; host: the example suite and two --op checks)
#   KC_BENCH_BACKEND=cuda bench/sandbox_bench.sh   (the CUDA example suite and --op softmax on relu.cu)
# Environment: KC (the binary; default build/kcontract).
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-build/kcontract}"
runs="${1:-3}"
backend="${KC_BENCH_BACKEND:-host}"
if [[ "$backend" == cuda ]]; then
  checks=("examples/suite_cuda.yaml" "--op softmax --impl examples/softmax/softmax.cu --backend cuda --dtype f32")
else
  checks=("examples/suite.yaml" "--op softmax --impl stdlib/ops/kernels/softmax.c --dtype f32"
          "--op matmul --impl stdlib/ops/kernels/matmul.c --dtype f32")
fi
seconds() {  # one check, its wall seconds
  local start end
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$KC" check $1 --sandbox "$2" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
printf '%-78s %8s %8s %7s\n' check auto off ratio
for c in "${checks[@]}"; do
  # shellcheck disable=SC2086
  "$KC" check $c >/dev/null 2>&1  # build the kernels once
  ratios=()
  for ((k = 0; k < runs; ++k)); do
    a=$(seconds "$c" auto)
    o=$(seconds "$c" off)
    r=$(python3 -c "print(f'{$a / $o:.3f}')")
    ratios+=("$r")
    printf '%-78s %7ss %7ss %7s\n' "$c" "$a" "$o" "$r"
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}')
  printf '%-78s %8s %8s %7s  (median of %d)\n' "$c" "" "" "$median" "$runs"
done
