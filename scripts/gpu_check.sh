#!/usr/bin/env bash
# Proves the CUDA backend on a GPU machine (issue 9). Run it THERE, from the repository
# root, with the bundle made here by scripts/bundle.sh carried along:
#
#   scripts/gpu_check.sh            # KC=path/to/kcontract to use another binary
#
# It prints the machine (nvidia-smi -L, driver, nvcc, glibc), then
#  1. examples/suite_cuda.yaml with --expect: softmax.cu, matmul.cu, layernorm.cu and relu.cu
#     PASS; softmax_no_max.cu (overflow), matmul_k_tail.cu (k-tail), layernorm_one_pass.cu
#     (one-pass-variance) and relu_nan.cu (nan-swallowed) FAIL, each with that signature on
#     some case;
#  2. the attack kernels of tests/e2e/kernels/, on small cases of the softmax contract:
#     cuda_private_stream.cu  FAIL   (work left on a private stream is read unfinished)
#     cuda_illegal_address.cu CRASH  (an illegal memory access was encountered)
#     cuda_bad_launch.cu      ERROR  (the kernel returns the launch error: invalid argument or configuration)
#     cuda_leak.cu            FAIL   (device-memory-leak)
#     cuda_hang.cu            TIMEOUT (the watchdog kills the worker; the run goes on)
#  3. kcontract calibrate --all --backend cuda: the CUDA calibration pairs, three states each;
#  4. kcontract check --op softmax (every case, f32 and bf16) on softmax.cu (PASS) and
#     softmax_no_max.cu (FAIL overflow);
#  5. contracts/calibration/cuda/grid_rows.yaml --expect: rows past the grid y limit;
#  6. kcontract oracle --target cuda over every standard op and example contract: the
#     compiled CUDA oracle agrees with the f64 interpreter on every cell (docs/oracle.md);
#  7. the ptx backend's suites on this GPU: examples/suite_ptx.yaml and
#     contracts/calibration/cuda/suite_ptx.yaml with `backend: cuda`, the same kernels, dims and
#     expectations (docs/ptx.md): the verdicts CI holds the ptx backend to are this GPU's;
# and everything kcontract prints. Exit 0 when every check came out as expected, else 1.
# STEPS="1 2" runs only those steps (default: all seven).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-gpu-check.XXXXXX")"
export KC_CACHE_DIR="$work/cache"   # every kernel is built afresh by this machine's nvcc
failures=0
checks=0

want() { [[ -z "${STEPS:-}" || " $STEPS " == *" $1 "* ]]; }
expect() {  # expect NAME CONDITION-RESULT(0/1) DETAIL
  checks=$((checks + 1))
  if [[ "$2" == 0 ]]; then
    echo "gpu_check: OK    $1"
  else
    echo "gpu_check: WRONG $1 ($3)"
    failures=$((failures + 1))
  fi
}

echo "== machine"
nvidia-smi -L 2>&1 || echo "(nvidia-smi failed)"
nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode --format=csv 2>&1 || true
nvcc="${CUDACXX:-}"
[[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
[[ -z "$nvcc" ]] && nvcc=nvcc
echo "nvcc: $nvcc"
"$nvcc" --version 2>&1 || echo "(nvcc not found: the CUDA backend cannot build .cu kernels here)"
ldd --version 2>&1 | head -1
[[ -f "$root/bundle/requires" ]] && echo "the bundle needs: $(cat "$root/bundle/requires")"
echo "kcontract: $KC"
if ! "$KC" --help >/dev/null 2>"$work/start.err"; then
  echo "gpu_check: kcontract does not start here:"
  cat "$work/start.err"
  exit 1
fi

# Every worker process has its own CUDA context (one per kernel while its runs pass, a fresh
# one after a failure: docs/backends.md). Where the driver is
# not kept loaded (persistence mode off), each first context can cost seconds: a process
# that only initialises the driver and sleeps keeps it loaded meanwhile (no context, no
# memory); it is ended at exit. The GPU's own settings are left alone.
keeper=""
if command -v python3 >/dev/null; then
  python3 -c 'import ctypes, time; ctypes.CDLL("libcuda.so.1").cuInit(0); time.sleep(1800)' >/dev/null 2>&1 &
  keeper=$!
fi
trap '[[ -n "$keeper" ]] && kill "$keeper" 2>/dev/null; rm -rf "$work"' EXIT
SECONDS=0

if want 1; then
echo
echo "== 1. examples/suite_cuda.yaml --expect"
"$KC" check examples/suite_cuda.yaml --expect --timeout 60 --format jsonl --out "$work/suite.jsonl" 2>&1
rc=$?
echo "[exit $rc] (${SECONDS} s)"
expect "suite_cuda.yaml: softmax.cu, matmul.cu, layernorm.cu, relu.cu PASS; softmax_no_max.cu, matmul_k_tail.cu, layernorm_one_pass.cu, relu_nan.cu FAIL" \
  "$([[ $rc == 0 ]]; echo $?)" "exit $rc"
# --expect counts any non-pass as "fail": each buggy kernel must FAIL with its signature.
for bug in softmax_no_max.cu:overflow matmul_k_tail.cu:k-tail layernorm_one_pass.cu:one-pass-variance relu_nan.cu:nan-swallowed; do
  grep -q "\"kernel\":\"[^\"]*/${bug%%:*}:[^\"]*\".*\"verdict\":\"FAIL\".*\"signatures\":\[[^]]*\"${bug#*:}\"" "$work/suite.jsonl" 2>/dev/null
  expect "suite_cuda.yaml: ${bug%%:*} FAILs with ${bug#*:}" $? "no FAIL line with that signature"
done
if grep -q '"SKIPPED"' "$work/suite.jsonl" 2>/dev/null; then
  echo "gpu_check: cases were SKIPPED; the reason:"
  grep -o '"reason":"[^"]*"' "$work/suite.jsonl" | sort | uniq -c | head -5
fi

fi
if want 2; then
echo
echo "== 2. the attack kernels (small cases of examples/softmax/softmax.kcontract)"
for k in cuda_private_stream cuda_illegal_address cuda_bad_launch cuda_leak cuda_hang; do
  cat >"$work/$k.yaml" <<YAML
kcontract-suite: 1
backend: cuda
kernels:
  - name: $k
    impl: $root/tests/e2e/kernels/$k.cu
    entry: kc_acme_softmax
    contract: $root/examples/softmax/softmax.kcontract
    supports: {dtypes: [f32], dims: {R: 1..3, H: 1..64}}
YAML
  echo
  echo "-- $k"
  limit=60; [[ $k == cuda_hang ]] && limit=5
  "$KC" check "$work/$k.yaml" --timeout $limit --format jsonl --out "$work/$k.jsonl" >"$work/$k.txt" 2>&1
  rc=$?
  cat "$work/$k.txt"
  echo "[exit $rc] (${SECONDS} s so far)"
  count() { grep -c "\"verdict\":\"$1\"" "$work/$k.jsonl" 2>/dev/null || true; }
  total="$(grep -c '"verdict"' "$work/$k.jsonl" 2>/dev/null || true)"
  pass="$(count PASS)"; fail="$(count FAIL)"; crash="$(count CRASH)"; error="$(count ERROR)"; skipped="$(count SKIPPED)"
  timeout="$(count TIMEOUT)"
  echo "verdicts: $total cases: PASS $pass, FAIL $fail, CRASH $crash, ERROR $error, SKIPPED $skipped"
  case "$k" in
    cuda_private_stream)
      expect "$k: every case FAIL (outputs read before the private stream wrote them)" \
        "$([[ $total -gt 0 && $fail == "$total" ]]; echo $?)" "PASS $pass FAIL $fail CRASH $crash ERROR $error SKIPPED $skipped" ;;
    cuda_illegal_address)
      expect "$k: every case CRASH with an illegal memory access" \
        "$([[ $total -gt 0 && $crash == "$total" ]] && cat "$work/$k.txt" "$work/$k.jsonl" 2>/dev/null | grep -q 'illegal memory access'; echo $?)" \
        "CRASH $crash of $total" ;;
    cuda_bad_launch)
      expect "$k: every case ERROR, the CUDA error in the kernel's output" \
        "$([[ $total -gt 0 && $error == "$total" ]] && cat "$work/$k.txt" "$work/$k.jsonl" 2>/dev/null | grep -qE 'invalid configuration argument|cudaErrorInvalid(Value|Configuration)'; echo $?)" \
        "ERROR $error of $total" ;;
    cuda_leak)
      expect "$k: every case FAIL with device-memory-leak" \
        "$([[ $total -gt 0 && $fail == "$total" ]] && grep -q 'device-memory-leak' "$work/$k.txt"; echo $?)" \
        "FAIL $fail of $total" ;;
    cuda_hang)
      expect "$k: every case TIMEOUT (watchdog, worker killed) and the run goes on" \
        "$([[ $total -gt 0 && $timeout == "$total" ]]; echo $?)" "TIMEOUT $timeout of $total" ;;
  esac
done

fi
if want 3; then
echo
echo "== 3. three-state calibration of the CUDA pairs (contracts/calibration.yaml, backend cuda)"
"$KC" calibrate --all --backend cuda --timeout 60 >"$work/cal.txt" 2>&1
rc=$?
cat "$work/cal.txt"
echo "[exit $rc] (${SECONDS} s so far)"
expect "calibrate --all --backend cuda: every CUDA pair shows all three states" \
  "$([[ $rc == 0 ]] && grep -qE 'calibrate: ([0-9]+) of \1 calibration pairs show all three states$' "$work/cal.txt"; echo $?)" "exit $rc"

fi
if want 4; then
echo
echo "== 4. check --op softmax on the CUDA softmax kernels (f32 and bf16)"
# The kernels take f32 and bf16 (the op also has f16): a suite says what they support.
for k in softmax softmax_no_max; do
  printf 'kcontract-suite: 1\nbackend: cuda\nkernels:\n  - {impl: %s, entry: kc_acme_softmax, op: softmax, supports: {dtypes: [f32, bf16]}}\n' \
    "$root/examples/softmax/$k.cu" >"$work/op_$k.yaml"
  "$KC" check "$work/op_$k.yaml" --timeout 60 >"$work/op_$k.txt" 2>&1
  rc=$?
  sed -n '/^kernel /,$p' "$work/op_$k.txt"
  echo "[exit $rc] (${SECONDS} s so far)"
  if [[ $k == softmax ]]; then
    expect "check --op softmax: softmax.cu passes" "$([[ $rc == 0 ]]; echo $?)" "exit $rc"
  else
    expect "check --op softmax: softmax_no_max.cu fails with overflow" \
      "$([[ $rc == 1 ]] && grep -q 'overflow' "$work/op_$k.txt"; echo $?)" "exit $rc"
  fi
done

fi
if want 5; then
echo
echo "== 5. rows past the grid y limit: contracts/calibration/cuda/grid_rows.yaml --expect"
"$KC" check contracts/calibration/cuda/grid_rows.yaml --expect --timeout 60 2>&1 | sed -n '/^kernel /,$p;/: error: /,/^$/p'
rc=${PIPESTATUS[0]}
echo "[exit $rc] (${SECONDS} s)"
expect "grid_rows.yaml: softmax_grid_y.cu FAILs with grid-limit, softmax_rows.cu passes" "$([[ $rc == 0 ]]; echo $?)" "exit $rc"

fi
if want 6; then
echo
echo "== 6. the compiled CUDA oracle against the f64 interpreter, every standard op and example (cases up to 64 MiB)"
mkdir -p "$work/agree"
ls stdlib/ops/*.kcontract examples/*/*.kcontract |
  xargs -P "${JOBS:-8}" -I{} sh -c '"$1" oracle --target cuda --max-memory 64M "$2" > "$3/agree/$(echo "$2" | tr / _).txt" 2>&1 || echo "disagrees or fails: $2"' _ "$KC" {} "$work" |
  tee "$work/agree_failures.txt"
cat "$work"/agree/*.txt > "$work/agree.txt"
grep -E "DIFFER|ERROR|interpreter only" "$work/agree.txt" | head -20
echo "$(grep -c 'all agree' "$work/agree.txt") contracts agree on every cell (${SECONDS} s)"
expect "kcontract oracle --target cuda: every cell of every contract agrees" "$([[ ! -s $work/agree_failures.txt ]]; echo $?)" \
  "$(wc -l < "$work/agree_failures.txt") contracts disagree or fail"

fi
if want 7; then
echo
echo "== 7. the ptx suites on this GPU: the same kernels, dims and expectations with backend: cuda"
for suite in examples/suite_ptx.yaml contracts/calibration/cuda/suite_ptx.yaml; do
  same="$(dirname "$suite")/.gpu_check_$(basename "$suite")"  # beside it: impl paths are relative
  sed 's/^backend: ptx$/backend: cuda/' "$suite" >"$same"
  echo "-- $suite on cuda"
  "$KC" check "$same" --expect --timeout 120 2>&1 | sed -n '/^kernel /,$p;/: error: /,/^$/p'
  rc=${PIPESTATUS[0]}
  rm -f "$same"
  echo "[exit $rc] (${SECONDS} s)"
  expect "$suite with backend: cuda: every kernel as the ptx backend must get it" "$([[ $rc == 0 ]]; echo $?)" "exit $rc"
done

fi
echo
echo "== gpu_check: $((checks - failures)) of $checks checks as expected (${SECONDS} s)"
[[ $failures == 0 ]]
