# The Python package and its pytest plugin (python/kcontract; docs/install.md, "Python"), on
# the CPU with Debian's torch: the example test file checks a right and a wrong torch softmax
# through the `kcontract` fixture. One test passes; the other fails as an assertion whose
# message names the verdict and signature, shows the worst cells and gives a replay command,
# and that command reproduces the failure. kcontract.check() returns the same verdicts, and a
# check kcontract cannot run at all raises KcontractError with kcontract's message.
export PATH="/usr/bin:$PATH"
export KC_BINARY="$KC"
ROOT_DIR="$(cd ../.. && pwd)"
mkdir -p "$WORK/examples"
cp -r ../../examples/pytest ../../examples/pytorch "$WORK/examples/"
cd "$WORK"
PYTHONPATH="$ROOT_DIR/python" python3 -m pytest -p kcontract.pytest_plugin -p no:cacheprovider examples/pytest -q >out.txt 2>&1
echo "pytest exit: $?"
grep -E '^(FAILED|[0-9]+ (passed|failed))' out.txt | sed -E 's/ in [0-9.]+s//'
grep -m1 ': FAIL (' out.txt
grep -m1 -E '^    y\[' out.txt >/dev/null && echo "worst cells shown"
replay=$(grep -m1 '^  replay: ' out.txt | sed 's/^  replay: //')
echo "$replay" | sed -E "s#$KC#kcontract#; s/inputs=[^ ]+/inputs=.../; s/marks=[^ ]+/marks=.../"
echo "== the replay line, run"
bash -c "$replay" 2>&1 | grep -E '^(inputs|FAIL|PASS)' | sed -E 's/ +[0-9.]+ s$//; s/fnv1a64:[0-9a-f]+/fnv1a64:.../'
echo "== kcontract.check"
PYTHONPATH="$ROOT_DIR/python:$WORK/examples/pytorch" python3 - <<'PY'
import kcontract
from torch_kernels import softmax, softmax_no_max
ok = kcontract.check(softmax, op="softmax", dtype="f32", dims={"R": "1..3"})
bad = kcontract.check(softmax_no_max, op="softmax", dtype="f32", dims={"R": "1..3"})
print("softmax:", ok.verdict, bool(ok), len(ok.cases), "cases")
print("softmax_no_max:", bad.verdict, bad.signatures, len(bad.failures), "failing,", len(bad.replay_lines), "replay lines")
try:
    kcontract.check(softmax, op="no_such_op")
except kcontract.KcontractError as e:
    print("KcontractError:", str(e).splitlines()[-1][:90])
try:
    kcontract.check(lambda x: x, op="softmax")
except kcontract.KcontractError as e:
    import re
    print("KcontractError:", re.sub(r" at 0x[0-9a-f]+", "", str(e)))
PY
