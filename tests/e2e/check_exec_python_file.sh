# A KernelBench problem file checked as it is (docs/backends.md, "The PyTorch adaptor"):
# `--impl FILE.py[:NAME] --backend exec` runs FILE's NAME (ModelNew by default) through the
# PyTorch adaptor over exec v2, on the CPU here, with no exec spec to write. The cases are
# narrowed to f32 and a few rows (--dtype, --dims). ModelNew PASSes; ModelNewWhere FAILs with
# nan-swallowed; a missing file is one located error (exit 2).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
for entry in "" ":ModelNewWhere"; do
  kc check --op relu --impl "data/kb_relu.py$entry" --backend exec --dtype f32 --dims R=1..3 --timeout 120 >"$WORK/out.txt"
  sed -n '/^kernel /,/^total/p; /^\[exit/p' "$WORK/out.txt" | sed -E 's/  +/  /g'
done
kc check --op relu --impl data/no_such_problem.py --backend exec --dtype f32 --dims R=1..3 2>&1 | grep -v '^note:'
