#!/usr/bin/env bash
# The main job: install what is missing, build, and check the example contracts: each one
# parses, is in canonical form, passes semantic analysis, and has a measurement plan and
# symbolic obligations. Running the example kernels against their contracts joins this
# script with the checker.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
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
