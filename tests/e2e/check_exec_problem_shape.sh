# A KernelBench problem as it is (docs/backends.md, "A KernelBench kernel"): --problem-shape
# asks the problem's get_inputs() for its shape (kc_torch.py --shapes), binds the contract's
# dims through its inputs' shapes and adds one case per dtype at exactly that shape (why:
# problem), numbered after the plan's own. A right ModelNew PASSes it; one that drops the
# last partial tile FAILs it, and the case's reproducer (problem=R:12,H:4100) replays. A
# get_inputs() that does not fit the contract, and a kernel that is not a .py file, are
# input errors (exit 2).
export PATH="/usr/bin:$PATH"
export KC_TORCH_DEVICE=cpu
cp data/kb_softmax_problem.py "$WORK/"
cd "$WORK"
echo "== the problem's shape, alone (--dims narrows to it; a .py kernel runs on the exec backend without --backend)"
kc check --op softmax --impl kb_softmax_problem.py --dtype f32 --problem-shape --dims R=12,H=4100 \
  --timeout 60 2>&1 | grep -E '^(note: kb|PASS|FAIL)' | sed -E 's/ +[0-9.]+ s$//'
echo "== every dtype (no other case of the plan has R=12): numbered after the plan's own"
kc check --op softmax --impl kb_softmax_problem.py --backend exec --problem-shape --dims R=12 --timeout 60 \
  --format jsonl 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
print(len(rows), "cases; last number", max(r["number"] for r in rows))
for r in rows:
    if r["why"] == "problem":
        print(r["case"], r["dims"], r["dtypes"], r["verdict"])'
echo "== a candidate that drops the last partial tile"
kc check --op softmax --impl kb_softmax_problem.py:ModelNewTiles --backend exec --dtype f32 --problem-shape \
  --dims R=12,H=4100 --timeout 60 >out.txt 2>&1
grep -E '^(FAIL|PASS)' out.txt | sed -E 's/ +[0-9.]+ s$//'
line=$(grep -m1 'repro: ' out.txt | sed -E "s/^ *repro: kcontract replay '//; s/'$//")
echo "$line" | grep -o 'problem=[^ ]*'
kc replay "$line" 2>&1 | grep -E '^(FAIL|PASS)' | sed -E 's/ +[0-9.]+ s$//'
echo "== errors"
cat > bad_rank.py <<'PY'
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
def get_inputs():
    return [torch.randn(3, 4, 5)]
PY
kc check --op softmax --impl bad_rank.py --backend exec --problem-shape
kc check --op softmax --impl "$OLDPWD/../../stdlib/ops/kernels/softmax.c" --problem-shape
