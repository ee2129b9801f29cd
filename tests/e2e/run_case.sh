#!/usr/bin/env bash
# Runs one end-to-end CLI case: tests/e2e/NAME.sh is a bash script, run from its folder,
# that calls `kc` (the kcontract binary; prints "[exit N]" after a nonzero exit). Its stdout
# and stderr together, then a line "exit: N" with its exit status, must equal NAME.expected. The repository root in the
# output is written <root>, the scratch folder $WORK <work>. KC_REGEN=1 rewrites NAME.expected.
#   run_case.sh KC_BINARY CASE.sh REPO_ROOT
set -uo pipefail
KC="$1"; CASE="$2"; ROOT="$3"
export KC
# kc ARGS...: runs kcontract and prints "[exit N]" after it when N is not 0.
kc() { "$KC" "$@"; local rc=$?; [[ $rc -ne 0 ]] && echo "[exit $rc]"; return $rc; }
export -f kc
dir="$(dirname "$CASE")"; name="$(basename "$CASE" .sh)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kc-e2e-$name.XXXXXX")"
export WORK
export KC_CACHE_DIR="$WORK/cache"  # kernels are built afresh: no state shared between runs
trap 'rm -rf "$WORK"' EXIT
actual="$(cd "$dir" && NO_COLOR=1 bash "$name.sh" 2>&1; echo "exit: $?")"
actual="${actual//$WORK/<work>}"
# Durations vary from run to run: "0.03 s" is written "#.## s".
actual="$(printf '%s\n' "$actual" | sed -E 's/[0-9]+\.[0-9]+ s( |$)/#.## s\1/g')"
actual="${actual//$ROOT/<root>}"
expected_file="$dir/$name.expected"
if [[ "${KC_REGEN:-}" == 1 ]]; then
  printf '%s\n' "$actual" >"$expected_file"
  echo "regenerated $expected_file"
  exit 0
fi
if [[ ! -f "$expected_file" ]]; then
  echo "missing $expected_file; run with KC_REGEN=1 to create it" >&2
  printf '%s\n' "$actual" >&2
  exit 1
fi
if ! diff -u "$expected_file" <(printf '%s\n' "$actual"); then
  echo "$name: output differs from $name.expected (diff above: - expected, + actual)" >&2
  exit 1
fi
