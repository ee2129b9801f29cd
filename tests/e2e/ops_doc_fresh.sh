# The generated part of docs/ops.md (the op table and the KernelBench level-1 table) is what
# `kcontract ops --format md` writes from stdlib/ops/: regenerate it with
#   build/kcontract ops --format md --out docs/ops.md
# Then the table's own checks and its checks against the library, each with its exact message.
cp ../../docs/ops.md "$WORK/ops.md"
kc ops --format md --out "$WORK/ops.md"
if diff -u ../../docs/ops.md "$WORK/ops.md" >"$WORK/diff"; then
  echo "docs/ops.md is fresh"
else
  echo "docs/ops.md is STALE: run build/kcontract ops --format md --out docs/ops.md"
  head -40 "$WORK/diff"
fi
# Every problem once, each with a contract or a reason; the ops in the table are the library's.
kc ops --format md | grep -c '^| [0-9]* | [0-9]*_'
kc ops --format md | grep -o '[0-9]* of 100 problems have a standard contract'
kc ops --format md | sed -n '/^| # | problem/,$p' | awk -F' \\| ' '$3 == "—" {n++} END {print n+0, "problems with a stated reason"}'
kc ops --format md --kernelbench data/kb/missing.yaml
kc ops --format md --kernelbench data/kb/disagree.yaml
kc ops --format md --kernelbench data/kb/both.yaml
printf 'no markers here\n' >"$WORK/plain.md"
kc ops --format md --out "$WORK/plain.md"
kc ops --out "$WORK/plain.md"
