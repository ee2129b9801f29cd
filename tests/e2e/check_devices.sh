# check --devices (docs/scale.md): a malformed list is refused whatever the jobs; on a suite
# without a GPU job it is a note and the run is that of one worker; a GPU job on a machine
# whose CUDA sees no device is refused before anything runs (exit 2). The spreading itself
# is tested in tests/unit/test_check_lanes.cpp and on two GPUs by scripts/gpu_check.sh.
R="$(pwd)/../../examples/relu"
cd "$WORK"
for list in 0,0 gpu0 "0,"; do
  "$KC" check $R/relu.kcontract --impl $R/relu.c --devices "$list" > /dev/null; echo "--devices $list: exit $?"
done
"$KC" check $R/relu.kcontract --impl $R/relu.c --format jsonl --out one.jsonl > /dev/null 2>&1
"$KC" check $R/relu.kcontract --impl $R/relu.c --devices all --format jsonl --out lanes.jsonl > /dev/null; echo "host job, --devices all: exit $?"
python3 - <<'PY'
import json
def load(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        for k in ("seconds", "chain", "run"):
            r.pop(k, None)
        out.append(r)
    return out
print("the same results as without --devices:", load("one.jsonl") == load("lanes.jsonl"))
PY
if [ -e /dev/nvidiactl ]; then
  echo "--devices 99: exit 2 (a GPU machine: not checked here)"
else
  "$KC" check $R/relu.kcontract --impl $R/relu.cu --backend cuda --devices 99 2>&1 >/dev/null | sed -E 's/(--devices 99: [^(]*).*/\1(...)/'
  echo "--devices 99 without a GPU: exit ${PIPESTATUS[0]}"
fi
