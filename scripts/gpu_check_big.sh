#!/usr/bin/env bash
# Proves the large-case path of the CUDA backend on a GPU machine (issue 9, items 2, 7 and
# 10's int32 kernel; issue 8's index-width class). Run it THERE, from the repository root,
# with the bundle made here by scripts/bundle.sh carried along:
#
#   scripts/gpu_check_big.sh        # KC=path/to/kcontract to use another binary
#
# Needs about 64 GiB of device memory (an H200 has 139 GiB) and little host memory. Checks:
#  1. contracts/calibration/scale.kcontract (y = 2x, N up to 5 * 2^30) on cuda/scale.cu (64-bit
#     indices): every case PASSes, the large-index cases of 2^31 + 1 and 2^32 + 1 elements and
#     the 5 * 2^30 boundary case among them, judged on sampled cells (streamed path);
#  2. the same contract on cuda/scale_int32.cu (`int n = numel`): the small cases PASS, every
#     case of 2^31 elements or more FAILs with cells never written (index-overflow);
#  3. kcontract calibrate std.mem.index-width@1 --backend cuda: three states;
#  4. the streamed path forced onto the small cases of examples/softmax and of
#     tests/e2e/data/relu_fills.kcontract (every distribution) on CUDA (--stream-cells 16;
#     inputs filled on the device by the support kernels) gives the verdicts the normal path
#     gives: a device fill that differed from the host's generator would show as
#     input-modified (and wrong values) on the correct kernels;
#  5. bench/big_compare.cu: the on-device comparison of a 2^32-element output against a
#     device-to-device copy of the same bytes (goal >= 0.6x), and the wall time of the
#     > 2^32-element case from step 1 (goal < 30 s).
# Prints "gpu_check_big: OK|WRONG <expectation>" per check; exit 0 when all are OK.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-gpu-big.XXXXXX")"
export KC_CACHE_DIR="$work/cache"   # kernels and the support kernels are built afresh here
failures=0
checks=0
trap 'rm -rf "$work"' EXIT

expect() {  # expect NAME CONDITION-RESULT(0/1) DETAIL
  checks=$((checks + 1))
  if [[ "$2" == 0 ]]; then
    echo "gpu_check_big: OK    $1"
  else
    echo "gpu_check_big: WRONG $1 ($3)"
    failures=$((failures + 1))
  fi
}
# verdict FILE.jsonl CASE-NUMBER: that case's verdict
verdict() { grep "\"number\":$2," "$1" | grep -o '"verdict":"[A-Z]*"' | head -1 | cut -d'"' -f4; }
field() { grep "\"number\":$2," "$1" | grep -o "\"$3\":[^,]*" | head -1 | cut -d: -f2- | tr -d '"}'; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "(nvidia-smi failed)"
free -g 2>/dev/null | head -2
echo "kcontract: $KC"
"$KC" --help >/dev/null 2>&1 || { echo "gpu_check_big: kcontract does not start here"; exit 1; }
SECONDS=0
contract=contracts/calibration/scale.kcontract
"$KC" plan "$contract" 2>&1 | sed -n '/^  case/,$p'

echo
echo "== 1. scale.cu (64-bit indices) on every case, large ones streamed"
"$KC" check "$contract" --impl contracts/calibration/cuda/scale.cu:kc_cal_scale --backend cuda --timeout 300 \
  --format jsonl --out "$work/ok.jsonl" >"$work/ok.txt" 2>&1
rc=$?
cat "$work/ok.txt"
echo "[exit $rc] (${SECONDS} s so far)"
big=$(grep -c '"reason":"judged on' "$work/ok.jsonl" 2>/dev/null || true)
expect "scale.cu: every case PASS, 3 of them (>= 2^31 elements) judged on sampled cells" \
  "$([[ $rc == 0 && $big -ge 3 ]] && ! grep -qv '"verdict":"PASS"' "$work/ok.jsonl"; echo $?)" "exit $rc, $big streamed"
for n in 8 9; do echo "case #$n: $(field "$work/ok.jsonl" $n verdict), $(field "$work/ok.jsonl" $n seconds) s, $(grep "\"number\":$n," "$work/ok.jsonl" | grep -o '"reason":"[^"]*"')"; done

echo
echo "== 2. scale_int32.cu (int n = numel) on every case"
"$KC" check "$contract" --impl contracts/calibration/cuda/scale_int32.cu:kc_cal_scale --backend cuda --timeout 300 \
  --format jsonl --out "$work/bad.jsonl" >"$work/bad.txt" 2>&1
rc=$?
cat "$work/bad.txt"
echo "[exit $rc] (${SECONDS} s so far)"
small_ok=1; big_fail=1
for n in 1 2 3 4 5 6; do [[ "$(verdict "$work/bad.jsonl" $n)" == PASS ]] || small_ok=0; done
for n in 7 8 9; do
  line=$(grep "\"number\":$n," "$work/bad.jsonl")
  [[ "$(verdict "$work/bad.jsonl" $n)" == FAIL ]] && grep -q 'index-overflow' <<<"$line" && grep -q 'never written' <<<"$line" || big_fail=0
done
expect "scale_int32.cu: cases below 2^31 elements PASS" "$([[ $small_ok == 1 ]]; echo $?)" "see above"
expect "scale_int32.cu: the 2^31 + 1, 2^32 + 1 and 5 * 2^30 element cases FAIL, cells never written (index-overflow)" \
  "$([[ $rc == 1 && $big_fail == 1 ]]; echo $?)" "exit $rc"

echo
echo "== 3. calibrate std.mem.index-width@1 --backend cuda"
"$KC" calibrate std.mem.index-width@1 --backend cuda --timeout 300 >"$work/cal.txt" 2>&1
rc=$?
cat "$work/cal.txt"
echo "[exit $rc] (${SECONDS} s so far)"
expect "calibrate std.mem.index-width@1: three states on CUDA" \
  "$([[ $rc == 0 ]] && grep -q '1 of 1 calibration pairs show all three states' "$work/cal.txt"; echo $?)" "exit $rc"

echo
echo "== 4. the streamed path forced onto small softmax and relu_fills cases on CUDA agrees with the normal path"
cat >"$work/sm.yaml" <<YAML
kcontract-suite: 1
backend: cuda
kernels:
  - {impl: $root/examples/softmax/softmax.cu, entry: kc_acme_softmax, contract: $root/examples/softmax/softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..64, H: 1..300}}}
  - {impl: $root/examples/softmax/softmax_no_max.cu, entry: kc_acme_softmax, contract: $root/examples/softmax/softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..64, H: 1..300}}}
  - {impl: $root/contracts/calibration/cuda/relu.cu, entry: kc_cal_relu, contract: $root/tests/e2e/data/relu_fills.kcontract}
YAML
"$KC" check "$work/sm.yaml" --timeout 120 --format jsonl --out "$work/n.jsonl" >/dev/null 2>&1
"$KC" check "$work/sm.yaml" --timeout 120 --stream-cells 16 --format jsonl --out "$work/s.jsonl" >/dev/null 2>&1
summary() { sed -E 's/.*"case":"([^"]*)".*"kernel":"([^"]*)".*"verdict":"([^"]*)".*"signatures":(\[[^]]*\]).*/\2 \1 \3 \4/' "$1"; }
same=0; differ=0; skipped=0; neither=0
while IFS='|' read -r a b; do
  if [[ "$b" == *" SKIPPED "* && "$a" == *" SKIPPED "* ]]; then neither=$((neither + 1))
  elif [[ "$b" == *" SKIPPED "* ]]; then skipped=$((skipped + 1))
  elif [[ "$a" == "$b" ]]; then same=$((same + 1))
  else differ=$((differ + 1)); echo "differs: normal: $a | streamed: $b"; fi
done < <(paste -d'|' <(summary "$work/n.jsonl") <(summary "$work/s.jsonl"))
echo "streamed vs normal: $same same, $differ different, $skipped not run by the streamed path (padded layouts, special values), $neither SKIPPED by both"
grep -h 'input-modified' "$work/s.jsonl" | head -3
expect "forced streamed path on CUDA: the same verdicts and signatures as the normal path (device fill == host generator)" \
  "$([[ $same -gt 0 && $differ == 0 && $neither == 0 ]]; echo $?)" "$same same, $differ differ, $neither SKIPPED by both"

echo
echo "== 5. bench: on-device comparison vs device-to-device copy; the > 2^32-element case's wall time"
nvcc="${CUDACXX:-}"; [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc; [[ -z "$nvcc" ]] && nvcc=nvcc
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
"$nvcc" -O3 -fmad=false -arch="sm_${arch:-90}" -I include -o "$work/big_compare" bench/big_compare.cu 2>&1
"$work/big_compare" 32
rc=$?
expect "bench: bitwise comparison of a 2^32-element output >= 0.6x a device-to-device copy" "$([[ $rc == 0 ]]; echo $?)" "exit $rc"
secs=$(field "$work/ok.jsonl" 9 seconds)
echo "the 2^32 + 1 element case (#9) took ${secs:-?} s on scale.cu (inputs generated, 2 launches, device checks, sampled oracle)"
expect "bench: the > 2^32-element case runs (PASS) in < 30 s" \
  "$([[ "$(verdict "$work/ok.jsonl" 9)" == PASS ]] && awk -v s="${secs:-999}" 'BEGIN { exit !(s < 30) }'; echo $?)" "${secs:-?} s"

echo
echo "== gpu_check_big: $((checks - failures)) of $checks checks as expected (${SECONDS} s)"
[[ $failures == 0 ]]
