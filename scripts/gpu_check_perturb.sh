#!/usr/bin/env bash
# Proves perturbation, compute-sanitizer mode and bench 1 of the CUDA backend on a GPU
# machine (issue 9, items 4 and 6). Run it THERE, from the repository root, with the bundle
# made here by scripts/bundle.sh (it holds kcontract and check_bench):
#
#   scripts/gpu_check_perturb.sh            # KC=... and CHECK_BENCH=... to use other binaries
#
#  1. perturbation (tests/e2e/data/rowsum_{plain,perturbed}.kcontract, repeats 6):
#     every perturbed case reports what ran ("noise: ...", never "not supported"); the
#     correct atomic-free row sum PASSes under every perturbation; the calibration's atomicAdd
#     row sum FAILs nondeterministic; cuda_staggered_atomic.cu, whose atomics arrive in index
#     order on an idle GPU, PASSes unperturbed and FAILs nondeterministic perturbed;
#  2. --sanitize on the attack kernels: memcheck on cuda_illegal_address.cu reports an invalid
#     write; racecheck on cuda_shared_race.cu a race; initcheck on cuda_uninit_scratch.cu an
#     uninitialised read; synccheck on cuda_divergent_barrier.cu a barrier error; memcheck on
#     the correct row sum 0 errors; verdicts unchanged by the tool;
#  3. bench 1: bundle/check_bench --backend cuda --own: the full standard check (check --op) of
#     softmax.cu and matmul.cu vs a 5-seed allclose, goal <= 3x; and, for comparison, each
#     against its own, heavier contract.
# Prints "gpu_check_perturb: OK|WRONG ..." per expectation; exit 0 when all are OK.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
CHECK_BENCH="${CHECK_BENCH:-$root/bundle/check_bench}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-gpu-perturb.XXXXXX")"
export KC_CACHE_DIR="$work/cache"
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
SECONDS=0
data="$root/tests/e2e/data"
kern="$root/tests/e2e/kernels"
cal="$root/contracts/calibration/cuda"

expect() {  # expect NAME 0|1 DETAIL
  checks=$((checks + 1))
  if [[ "$2" == 0 ]]; then
    echo "gpu_check_perturb: OK    $1"
  else
    echo "gpu_check_perturb: WRONG $1 ($3)"
    failures=$((failures + 1))
  fi
}

# jq-like questions about a JSON Lines report, answered by python3.
ask() {  # ask FILE EXPR  (EXPR over `rs`, the list of results)
  python3 -c 'import json,sys; rs=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

check() {  # check NAME ARGS...: kcontract check ... --format jsonl --out $work/NAME.jsonl, text shown
  local name="$1"; shift
  "$KC" check "$@" --backend cuda --timeout 60 --format jsonl --out "$work/$name.jsonl" --replace >"$work/$name.txt" 2>&1
  local rc=$?
  sed -n '1,200p' "$work/$name.txt"
  echo "[exit $rc] (${SECONDS} s so far)"
}

echo "== machine"
nvidia-smi -L 2>&1 || echo "(nvidia-smi failed)"
sanitizer="$(command -v compute-sanitizer || true)"
[[ -z "$sanitizer" && -x /usr/local/cuda/bin/compute-sanitizer ]] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
echo "compute-sanitizer: ${sanitizer:-NOT FOUND}"
[[ -n "$sanitizer" ]] && "$sanitizer" --version 2>&1 | head -3
"$KC" --help >/dev/null 2>&1 || { echo "gpu_check_perturb: kcontract does not start: $KC"; exit 1; }

echo
echo "== 1. perturbation"
echo "-- the correct row sum (no atomics), perturbed"
check correct "$data/rowsum_perturbed.kcontract" --impl "$cal/rowsum.cu:kc_cal_rowsum"
expect "every perturbed case says what ran (noise / launch_order / occupancy), none 'not supported'" \
  "$([[ "$(ask "$work/correct.jsonl" 'sum(1 for r in rs if r.get("perturbation","").split(":")[0] in ("noise","launch_order","occupancy"))')" == 3 ]]; echo $?)" \
  "$(ask "$work/correct.jsonl" '[r.get("perturbation") for r in rs]')"
expect "the correct row sum PASSes every perturbed case" \
  "$([[ "$(ask "$work/correct.jsonl" 'sum(r["verdict"]=="PASS" for r in rs)')" == 3 ]]; echo $?)" \
  "$(ask "$work/correct.jsonl" '[r["verdict"] for r in rs]')"
echo "-- the calibration's atomicAdd row sum, perturbed"
check atomic "$data/rowsum_perturbed.kcontract" --impl "$cal/rowsum_atomic.cu:kc_cal_rowsum"
expect "rowsum_atomic.cu FAILs nondeterministic under perturbation" \
  "$([[ "$(ask "$work/atomic.jsonl" 'sum("nondeterministic" in r["signatures"] for r in rs)')" -ge 1 ]]; echo $?)" \
  "$(ask "$work/atomic.jsonl" '[(r["verdict"], r["signatures"]) for r in rs]')"
echo "-- cuda_staggered_atomic.cu, unperturbed (5 runs of the one case)"
stable=0
for i in 1 2 3 4 5; do
  check "stagger_plain_$i" "$data/rowsum_plain.kcontract" --impl "$kern/cuda_staggered_atomic.cu" >/dev/null
  [[ "$(ask "$work/stagger_plain_$i.jsonl" 'rs[0]["verdict"]')" == PASS ]] && stable=$((stable + 1))
done
cat "$work/stagger_plain_1.txt"
expect "cuda_staggered_atomic.cu PASSes unperturbed (repeats alone do not catch it): $stable of 5 runs" \
  "$([[ $stable == 5 ]]; echo $?)" "the stagger did not keep the atomics in order on an idle GPU"
echo "-- cuda_staggered_atomic.cu, perturbed (5 runs of the three cases)"
caught=0
for i in 1 2 3 4 5; do
  check "stagger_pert_$i" "$data/rowsum_perturbed.kcontract" --impl "$kern/cuda_staggered_atomic.cu" >/dev/null
  n="$(ask "$work/stagger_pert_$i.jsonl" 'sum("nondeterministic" in r["signatures"] for r in rs)')"
  echo "run $i: $(ask "$work/stagger_pert_$i.jsonl" '" ".join(r["verdict"] + "(" + r.get("perturbation","").split(":")[0] + ")" for r in rs)')"
  [[ "${n:-0}" -ge 1 ]] && caught=$((caught + 1))
done
expect "cuda_staggered_atomic.cu FAILs nondeterministic under perturbation: $caught of 5 runs" \
  "$([[ $caught -ge 1 ]]; echo $?)" "no perturbation changed the order of its atomics"

echo
echo "== 2. compute-sanitizer (--sanitize)"
if [[ -z "$sanitizer" ]]; then
  echo "compute-sanitizer is not on this machine: each re-run must say so"
fi
sanitize() {  # sanitize NAME TOOL PATTERN ARGS...
  local name="$1" tool="$2" pattern="$3"; shift 3
  echo "-- $tool: $name"
  check "$name" "$@" --sanitize "$tool"
  local found
  found="$(PATTERN="$pattern" python3 -c 'import json,os,sys; rs=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; p=os.environ["PATTERN"]; print(sum(1 for r in rs if r.get("sanitizer",{}).get("errors",0) > 0 and any(p in f for f in r["sanitizer"]["findings"])))' "$work/$name.jsonl" 2>/dev/null)"
  expect "$tool on $name reports '$pattern' ($found case(s))" "$([[ "${found:-0}" -ge 1 ]]; echo $?)" \
    "$(ask "$work/$name.jsonl" '[r.get("sanitizer") for r in rs][:2]')"
}
sanitize illegal_address memcheck "Invalid __global__ write" "$root/examples/softmax/softmax.kcontract" \
  --impl "$kern/cuda_illegal_address.cu" --dtype f32 --shard 0/16
expect "memcheck leaves the verdicts alone (every case still CRASH)" \
  "$([[ "$(ask "$work/illegal_address.jsonl" 'all(r["verdict"]=="CRASH" for r in rs) and len(rs) > 0')" == True ]]; echo $?)" \
  "$(ask "$work/illegal_address.jsonl" '[r["verdict"] for r in rs]')"
sanitize shared_race racecheck "Race reported" "$data/rowsum_plain.kcontract" --impl "$kern/cuda_shared_race.cu" --sanitize-all
sanitize uninit_scratch initcheck "Uninitialized __global__ memory read" "$data/rowsum_plain.kcontract" \
  --impl "$kern/cuda_uninit_scratch.cu" --sanitize-all
sanitize divergent_barrier synccheck "Barrier error" "$data/rowsum_plain.kcontract" \
  --impl "$kern/cuda_divergent_barrier.cu" --sanitize-all
echo "-- memcheck: the correct row sum"
check clean "$data/rowsum_plain.kcontract" --impl "$cal/rowsum.cu:kc_cal_rowsum" --sanitize memcheck --sanitize-all
expect "memcheck on the correct row sum: ran, 0 errors, PASS" \
  "$([[ "$(ask "$work/clean.jsonl" 'rs[0]["sanitizer"]["ran"] and rs[0]["sanitizer"]["errors"] == 0 and rs[0]["verdict"] == "PASS"')" == True ]]; echo $?)" \
  "$(ask "$work/clean.jsonl" 'rs[0].get("sanitizer")')"

echo
echo "== 3. bench 1: the full check vs a 5-seed allclose (CUDA examples)"
if [[ -x "$CHECK_BENCH" ]]; then
  "$CHECK_BENCH" --backend cuda --own 2>&1
  rc=$?
  echo "[exit $rc] (${SECONDS} s so far)"
  expect "check_bench: the standard checks of softmax.cu and matmul.cu within 3x their allclose" "$rc" \
    "exit $rc: see the ratios above"
else
  expect "check_bench present" 1 "no $CHECK_BENCH: make the bundle with scripts/bundle.sh"
fi

echo
echo "== gpu_check_perturb: $((checks - failures)) of $checks checks as expected (${SECONDS} s)"
[[ $failures == 0 ]]
