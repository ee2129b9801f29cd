#!/usr/bin/env bash
# Everything CUDA on the ptx backend (docs/ptx.md), no GPU needed: the CUDA side of
# scripts/gpu_check.sh, with the verdicts the H200 gives, where CI's e2e tests (the examples,
# a share of the calibration kernels, three attack kernels) leave off for time:
#  1. examples/suite_ptx.yaml --expect: the CUDA examples;
#  2. contracts/calibration/cuda/suite_ptx.yaml --expect: the CUDA calibration kernels;
#  3. the attack kernels of tests/e2e/kernels/ on small cases of the softmax contract (the
#     rowsum ones on std.cal.rowsum@1), each with the verdict it must get here:
#     cuda_private_stream FAIL, cuda_illegal_address CRASH, cuda_bad_launch ERROR, cuda_leak
#     FAIL (device-memory-leak), cuda_shared_race CRASH (data race), cuda_divergent_barrier
#     CRASH (barrier divergence), ptx_unknown_instruction: not loaded (unknown instruction).
# Exit 0 when every check came out as expected, else 1.   scripts/ptx_check.sh [KC=path]
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/build/kcontract}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-ptx-check.XXXXXX")"
export KC_CACHE_DIR="${KC_CACHE_DIR:-$work/cache}"
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
expect() {  # expect NAME CONDITION-RESULT(0/1) DETAIL
  checks=$((checks + 1))
  if [[ "$2" == 0 ]]; then echo "ptx_check: OK    $1"; else echo "ptx_check: WRONG $1 ($3)"; failures=$((failures + 1)); fi
}
SECONDS=0
for suite in examples/suite_ptx.yaml contracts/calibration/cuda/suite_ptx.yaml; do
  echo "== $suite --expect"
  "$KC" check "$suite" --expect --timeout 180 2>&1 | sed -n '/^kernel /,$p'
  rc=${PIPESTATUS[0]}
  expect "$suite: every kernel as on the H200" "$([[ $rc == 0 ]]; echo $?)" "exit $rc"
done
echo "== the attack kernels"
for k in cuda_private_stream:FAIL cuda_illegal_address:CRASH cuda_bad_launch:ERROR cuda_leak:FAIL \
         cuda_shared_race:CRASH cuda_divergent_barrier:CRASH ptx_unknown_instruction:none; do
  name="${k%%:*}" want="${k#*:}"
  contract="$root/examples/softmax/softmax.kcontract" entry=kc_acme_softmax dims="{R: 1..3, H: 1..64}"
  case $name in cuda_shared_race|cuda_divergent_barrier) contract=std.cal.rowsum@1 entry=kc_rowsum dims="{R: 1..3, H: 1..300}";; esac
  printf 'kcontract-suite: 1\nbackend: ptx\nkernels:\n  - {impl: %s, entry: %s, contract: %s, supports: {dtypes: [f32], dims: %s}}\n' \
    "$root/tests/e2e/kernels/$name.cu" "$entry" "$contract" "$dims" >"$work/$name.yaml"
  "$KC" check "$work/$name.yaml" --timeout 60 --format jsonl --out "$work/$name.jsonl" >"$work/$name.txt" 2>&1
  total="$(grep -c '"verdict"' "$work/$name.jsonl" 2>/dev/null || true)"
  got="$(grep -c "\"verdict\":\"$want\"" "$work/$name.jsonl" 2>/dev/null || true)"
  echo "-- $name: $total cases, $got $want"
  grep -o '"reason":"[^"]*"' "$work/$name.jsonl" 2>/dev/null | sort -u | head -1
  if [[ $want == none ]]; then
    grep ': error: ' "$work/$name.txt"
    expect "$name: not loaded, the unknown instruction named" \
      "$([[ ${total:-0} == 0 ]] && grep -q "unknown instruction 'brkpt'" "$work/$name.txt"; echo $?)" "$total cases"
  elif [[ $name == cuda_leak ]]; then
    expect "$name: every case FAIL with device-memory-leak" \
      "$([[ $total -gt 0 && $got == "$total" ]] && grep -q '"device-memory-leak"' "$work/$name.jsonl"; echo $?)" "$got of $total"
  elif [[ $name == cuda_private_stream ]]; then
    expect "$name: every case FAIL with unwritten cells" \
      "$([[ $total -gt 0 && $got == "$total" ]] && grep -q '"unwritten-cells"' "$work/$name.jsonl"; echo $?)" "$got of $total"
  elif [[ $name == cuda_bad_launch ]]; then
    expect "$name: every case ERROR, the runtime's error in the kernel's output" \
      "$([[ $total -gt 0 && $got == "$total" ]] && grep -q 'invalid configuration argument' "$work/$name.txt"; echo $?)" "$got of $total"
  else
    expect "$name: every case $want" "$([[ $total -gt 0 && $got == "$total" ]]; echo $?)" "$got of $total"
  fi
done
echo "== ptx_check: $((checks - failures)) of $checks checks as expected (${SECONDS} s)"
[[ $failures == 0 ]]
