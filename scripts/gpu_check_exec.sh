#!/usr/bin/env bash
# Proves the exec backend and the PyTorch adaptor on a GPU machine, and that the backends
# agree there (issue 6). Run it THERE, from the repository root, with the bundle made here
# by scripts/bundle.sh carried along (torch must be installed there; nothing is fetched):
#
#   scripts/gpu_check_exec.sh        # KC=path/to/kcontract to use another binary
#
#  1. torch on the device: its version, torch.cuda.is_available(), the GPU's name;
#  2. examples/suite_torch.yaml with --expect and KC_TORCH_DEVICE=cuda: torch.softmax,
#     torch.relu and ModelNew PASS; softmax without max subtraction FAILs (overflow), relu
#     via torch.where FAILs (nan-swallowed) -- the same verdicts as on the CPU in CI;
#  3. agreement: examples/suite.yaml (host) and examples/suite_cuda.yaml (cuda) as JSON
#     Lines, compared case by case by scripts/compare_backends.py: the same verdict and
#     signatures on both (layernorm_one_pass, whose borderline cases depend on the order of
#     its f32 sums, may PASS on one backend and FAIL on the other: those are printed, not
#     counted); examples/suite_opencl.yaml (opencl) too where NVIDIA's OpenCL ICD
#     and the OpenCL headers are installed (else its cases are SKIPPED or ERROR, reported
#     and not compared).
# Exit 0 when every check came out as expected, else 1.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
root="$(pwd)"
KC="${KC:-$root/bundle/kcontract}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kc-gpu-check-exec.XXXXXX")"
export KC_CACHE_DIR="$work/cache"
failures=0

expect() {  # expect NAME STATUS DETAIL
  if [[ "$2" == 0 ]]; then
    echo "gpu_check_exec: OK    $1"
  else
    echo "gpu_check_exec: WRONG $1 ($3)"
    failures=$((failures + 1))
  fi
}

echo "== torch"
python3 -c 'import torch, numpy; print("torch", torch.__version__, "numpy", numpy.__version__); print("cuda available:", torch.cuda.is_available()); print(torch.cuda.get_device_name(0) if torch.cuda.is_available() else "(no CUDA device)")' 2>&1
python3 -c 'import torch; assert torch.cuda.is_available()' >/dev/null 2>&1
expect "torch sees a CUDA device" $? "torch.cuda.is_available() is False"
if ! "$KC" --help >/dev/null 2>"$work/start.err"; then
  echo "gpu_check_exec: kcontract does not start here:"; cat "$work/start.err"; exit 1
fi

echo "== 1. examples/suite_torch.yaml on cuda (exec backend, PyTorch adaptor)"
KC_TORCH_DEVICE=cuda "$KC" check examples/suite_torch.yaml --expect --timeout 300 --format jsonl \
  --out "$work/torch.jsonl" >"$work/torch.txt" 2>&1
rc=$?
cat "$work/torch.txt"
expect "suite_torch.yaml on cuda: every kernel got the verdict it expects" $rc "kcontract exited $rc"
# --expect counts any non-pass as "fail": the buggy functions must FAIL, with their signatures.
! grep -q '"verdict":"\(ERROR\|CRASH\|TIMEOUT\|SKIPPED\|MISTRUSTED\)"' "$work/torch.jsonl"
expect "suite_torch.yaml on cuda: no case ERROR, CRASH, TIMEOUT, SKIPPED or MISTRUSTED" $? "see the cases above"
grep -q '"kernel":"[^"]*softmax_no_max.kcexec[^"]*".*"verdict":"FAIL".*"signatures":\["overflow"\]' "$work/torch.jsonl"
expect "softmax_no_max FAILs with overflow" $? "no FAIL line with the overflow signature"
grep -q '"kernel":"[^"]*relu_nan.kcexec[^"]*".*"verdict":"FAIL".*"signatures":\["nan-swallowed"\]' "$work/torch.jsonl"
expect "relu_nan FAILs with nan-swallowed" $? "no FAIL line with the nan-swallowed signature"

echo "== 2. the backends agree (host, cuda, opencl)"
"$KC" check examples/suite.yaml --format jsonl --out "$work/host.jsonl" >/dev/null 2>&1
"$KC" check examples/suite_cuda.yaml --format jsonl --out "$work/cuda.jsonl" >/dev/null 2>&1
"$KC" check examples/suite_opencl.yaml --format jsonl --out "$work/opencl.jsonl" >/dev/null 2>&1
echo "cuda cases: $(grep -c '"verdict"' "$work/cuda.jsonl") ($(grep -c '"verdict":"SKIPPED"' "$work/cuda.jsonl") skipped)"
echo "opencl cases: $(grep -c '"verdict"' "$work/opencl.jsonl") ($(grep -c '"verdict":"SKIPPED"' "$work/opencl.jsonl") skipped)"
python3 scripts/compare_backends.py --order-dependent layernorm_one_pass "$work/host.jsonl" "$work/cuda.jsonl"
expect "host and cuda agree on every case" $? "see the disagreements above"
! grep -q '"verdict":"SKIPPED"' "$work/cuda.jsonl"
expect "the cuda cases ran (none SKIPPED)" $? "CUDA cases were skipped"
# OpenCL there needs an ICD (NVIDIA's) and the OpenCL headers for the kernels' host files:
# compared when every case ran, else only reported.
if grep -q '"verdict":"\(SKIPPED\|ERROR\)"' "$work/opencl.jsonl"; then
  echo "opencl: not compared (cases SKIPPED or ERROR here):"
  grep -m1 '"verdict":"\(SKIPPED\|ERROR\)"' "$work/opencl.jsonl" | python3 -c 'import json,sys; [print("  ", json.loads(l).get("reason", "")[:400]) for l in sys.stdin]'
else
  python3 scripts/compare_backends.py --order-dependent layernorm_one_pass "$work/host.jsonl" "$work/cuda.jsonl" \
    "$work/opencl.jsonl"
  expect "host, cuda and opencl agree on every case" $? "see the disagreements above"
fi

rm -rf "$work"
echo "gpu_check_exec: $failures failure(s)"
[[ $failures == 0 ]]
