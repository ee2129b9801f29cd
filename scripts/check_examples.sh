#!/usr/bin/env bash
# The example kernels against their contracts, the last step of the main job
# (scripts/main.sh): on the CUDA backend when this machine has a GPU the CUDA backend can use
# (examples/suite_cuda.yaml, the .cu twins), else on the host backend (examples/suite.yaml,
# the C kernels). Without a usable GPU every CUDA case is SKIPPED with the reason, which is
# printed before the host run. Exit 0 when every kernel gets the verdict the suite expects of
# it (--expect).
#   scripts/check_examples.sh      # KC=path/to/kcontract; default $KC_BUILD_DIR/kcontract, else build/kcontract
set -euo pipefail
cd "$(dirname "$0")/.."
KC="${KC:-${KC_BUILD_DIR:-build}/kcontract}"
cuda_jsonl="$(mktemp)"
cuda_text="$(mktemp)"
trap 'rm -f "$cuda_jsonl" "$cuda_text"' EXIT

echo "== kcontract check examples/suite_cuda.yaml (CUDA backend, when a GPU is present) =="
set +e
"$KC" check examples/suite_cuda.yaml --expect --timeout 60 --format jsonl --out "$cuda_jsonl" --replace >"$cuda_text" 2>&1
cuda_rc=$?
set -e
# A case that ran (any verdict but SKIPPED) means there is a GPU: that run is the job's.
if grep -q '"verdict":"\(PASS\|FAIL\|ERROR\|CRASH\|TIMEOUT\|MISTRUSTED\)"' "$cuda_jsonl"; then
  cat "$cuda_text"
  exit "$cuda_rc"
fi
reason=$(grep -m1 -o '"reason":"[^"]*"' "$cuda_jsonl" | sed 's/^"reason":"//; s/"$//' || true)
echo "no CUDA run here (${reason:-the CUDA suite ran no case}); the host backend instead"
echo
echo "== kcontract check examples/suite.yaml (host backend) =="
"$KC" check examples/suite.yaml --expect
