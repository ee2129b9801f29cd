#!/usr/bin/env bash
# Writes the attack suite for BACKEND (host or cuda) on stdout, in the current folder, which
# holds this folder's kernels and examples/relu's: the correct and the buggy relu, then every
# attack of expected.txt with the verdict it gets on BACKEND, then the two relus again (their
# verdicts must not change). On cuda each attack's .c is wrapped in a .cu written here.
#   write_suite.sh host|cuda > suite.yaml
set -euo pipefail
backend="$1"
here="$(dirname "$0")"
case "$backend" in host) column=2 ext=c ;; cuda) column=3 ext=cu ;; *) echo "write_suite.sh: host or cuda, not '$backend'" >&2; exit 2 ;; esac
dims='supports: {dtypes: [f32], dims: {N: 1..100}}'
relus() {
  echo "  - {name: relu $1, impl: relu.$ext, contract: relu.kcontract, expect: pass, $dims}"
  echo "  - {name: relu NaN $1, impl: relu_nan.$ext, contract: relu.kcontract, expect: fail, $dims}"
}
echo "kcontract-suite: 1"
[[ "$backend" == cuda ]] && echo "backend: cuda"
echo "kernels:"
relus before
grep -v '^#' "$here/expected.txt" | while read -r attack host cuda; do
  expect=$([[ $column == 2 ]] && echo "$host" || echo "$cuda")
  [[ "$ext" == cu ]] && printf '#include "%s.c"\n' "$attack" > "$attack.cu"
  echo "  - {name: $attack, impl: $attack.$ext, contract: relu.kcontract, expect: $expect, $dims}"
done
relus after
