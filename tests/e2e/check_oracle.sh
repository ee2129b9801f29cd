# check --oracle (docs/oracle.md, "The compiled oracle"): the example suite with the compiled
# oracle on the host gives every case the verdict, signatures and mismatched cells it gets
# with the interpreter, and each job says which oracle ran. Without a GPU, --oracle cuda runs
# the interpreter and says why; an unknown --oracle is a usage error.
kc check ../../examples/suite.yaml --expect --oracle host --max-memory 1M --format jsonl --out "$WORK/host.jsonl" >"$WORK/host.txt"
kc check ../../examples/suite.yaml --expect --oracle interpreter --max-memory 1M --format jsonl --out "$WORK/interp.jsonl" >/dev/null
grep "^note: .*oracle" "$WORK/host.txt"
python3 - "$WORK/host.jsonl" "$WORK/interp.jsonl" <<'PY'
import json, sys
from collections import Counter
def load(path):
    return {(j["kernel"], j["case"]): j for j in map(json.loads, open(path)) if "case" in j}
host, interp = load(sys.argv[1]), load(sys.argv[2])
keys = ("verdict", "signatures", "mismatched", "compared")
same = sum(1 for k in interp if k in host and all(host[k].get(f) == interp[k].get(f) for f in keys))
print(f"cases: {len(interp)}; the same {', '.join(keys)} with --oracle host: {same}")
print("oracle per case (host run):", dict(sorted(Counter(j.get("oracle", "-") for j in host.values()).items())))
PY
echo "--- --oracle cuda without a GPU"
kc check ../../examples/relu/relu.kcontract --impl ../../examples/relu/relu.c --dtype f32 --max-memory 1M --oracle cuda | grep "^note: .*oracle" | sed -E 's/\(no GPU for the compiled oracle: .*\)$/(no GPU for the compiled oracle: ...)/'
echo "--- an unknown --oracle"
kc check ../../examples/relu/relu.kcontract --impl ../../examples/relu/relu.c --oracle gpu
