#!/usr/bin/env bash
# The diagnosis corpus on a GPU machine (tests/diagnosis/README.md): the CUDA kernels, each
# buggy one expected to FAIL with its label as the primary cause, each twin to PASS. Prints
# the check's report and, per kernel, the label and the primary cause the diagnosis named.
#   scripts/gpu_check_diagnosis.sh [KCONTRACT] [ENTRY...]   # default: bundle/kcontract, every entry
# ENTRY: the suite's entries by number from 1 (`1-4 9 11-19`), for a device's per-command time
# limit: the parts, run one after another, make the whole suite. The report goes to
# $OUT/diagnosis_cuda[_PART].txt.
set -uo pipefail
cd "$(dirname "$0")/.."
KC="${1:-bundle/kcontract}"
shift || true
suite=tests/diagnosis/suite_cuda.yaml
tag=""
if [[ $# -gt 0 ]]; then
  tag="_$(echo "$*" | tr ' ' '_')"
  part="tests/diagnosis/.part$tag.yaml"  # beside the suite: its impl paths are relative to it
  python3 - "$suite" "$part" "$@" <<'PY'
import sys
suite, part, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
want = set()
for s in specs:
    lo, _, hi = s.partition("-")
    want.update(range(int(lo), int(hi or lo) + 1))
lines = open(suite).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("kernels:")) + 1
head, entries, cur = lines[:start], [], None
for l in lines[start:]:
    if l.startswith("  - "):
        cur = [l]
        entries.append(cur)
    elif cur is not None:
        cur.append(l)
picked = [e for n, e in enumerate(entries, 1) if n in want]
open(part, "w").write("\n".join(head + [l for e in picked for l in e]) + "\n")
PY
  suite="$part"
fi
out="${OUT:-/tmp}/diagnosis_cuda$tag.txt"
"$KC" check "$suite" --expect --timeout 120 > "$out" 2>&1
rc=$?
[[ -z "$tag" ]] || rm -f "$suite"
grep -E "^diagnosis:|^    (cause|also|re-run|not named):|as expected" "$out"
echo "== gpu_check_diagnosis$tag: check exited $rc (0: every kernel as the suite expects); report in $out"
exit $rc
