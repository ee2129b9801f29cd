#!/usr/bin/env bash
# The main job: install what is missing, build, check the example contracts (each parses,
# is in canonical form, passes semantic analysis, and has a measurement plan and symbolic
# obligations), then run the example kernels against their contracts: on the CUDA backend
# when a GPU is present (examples/suite_cuda.yaml), else on the host backend
# (examples/suite.yaml). The correct kernels PASS, the buggy ones FAIL with the signature
# their contract names.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh kcontract  # the binary alone: the tests and benchmarks are scripts/test.sh's
KC="${KC_BUILD_DIR:-build}/kcontract"
mapfile -t examples < <(find examples -name '*.kcontract' | sort)
echo "== kcontract fmt --check: ${#examples[@]} example contracts =="
"$KC" fmt --check "${examples[@]}"
for f in "${examples[@]}"; do
  echo "== $f =="
  ir=$("$KC" ir "$f")
  plan=$("$KC" plan "$f")
  obligations=$("$KC" obligations "$f")
  grep -E '^(kernel|contract) ' <<<"$ir" | sed 's/^/  checked /'
  echo "  ${plan%%$'\n'*}"
  echo "  $(grep -c '^[^ ]' <<<"$obligations") symbolic obligations (kcontract obligations $f)"
done
echo "all ${#examples[@]} example contracts parse, are canonical, pass semantic analysis and have plans"
echo
bash scripts/check_examples.sh
