#!/usr/bin/env bash
# The diagnosis corpus on a GPU machine (tests/diagnosis/README.md): the CUDA kernels, each
# buggy one expected to FAIL with its label as the primary cause, each twin to PASS. Prints
# the check's report and, per kernel, the label and the primary cause the diagnosis named.
#   scripts/gpu_check_diagnosis.sh [KCONTRACT]     # default: bundle/kcontract
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${1:-bundle/kcontract}"
out="${OUT:-/tmp}/diagnosis_cuda.txt"
"$KC" check tests/diagnosis/suite_cuda.yaml --expect --timeout 120 > "$out" 2>&1
rc=$?
grep -E "^diagnosis:|^    (cause|also|re-run|not named):|as expected" "$out"
echo "== gpu_check_diagnosis: check exited $rc (0: every kernel as the suite expects); report in $out"
exit $rc
