# kcontract merge (docs/scale.md): a suite run in three shards (--shard I/3) and merged gives
# the results of the unsharded run, case by case, timings aside; duplicates (a shard given
# twice) are dropped; a shard cut short by a kill loses only its last case, said on stderr;
# a tampered shard, shards of different plans (--seed) and of different contract versions
# are refused (exit 2); any report format is written from the merge.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax.c ../../examples/softmax/softmax_no_max.c "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {name: softmax, impl: softmax.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 1..65}}}
  - {name: no max, impl: softmax_no_max.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 1..65}}}
YAML
"$KC" check suite.yaml --format jsonl --out all.jsonl > /dev/null; echo "unsharded: exit $?"
for i in 0 1 2; do "$KC" check suite.yaml --shard $i/3 --format jsonl --out s$i.jsonl > /dev/null; echo "shard $i/3: exit $? $(wc -l < s$i.jsonl) records"; done
kc merge s0.jsonl s1.jsonl s2.jsonl --out merged.jsonl
python3 - <<'PY'
import json
def load(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        for k in ("seconds", "chain", "run"):
            r.pop(k, None)
        out[(r["case"], r["kernel"], r["backend"])] = r
    return out
a, m = load("all.jsonl"), load("merged.jsonl")
print(f"unsharded {len(a)} results, merged {len(m)}; the same cases: {a.keys() == m.keys()}; "
      f"differences: {sum(a[k] != m[k] for k in a if k in m)}")
print("every merged record carries the plan:", all(len(r["plan"]) == 16 for r in m.values()))
PY
echo "== a shard given twice"
kc merge s0.jsonl s1.jsonl s0.jsonl s2.jsonl --format text | head -1
echo "== the merged file verifies (merge of one file)"
kc merge merged.jsonl --format text | head -1
echo "== a shard cut short by a kill"
head -c -40 s2.jsonl > cut.jsonl
kc merge s0.jsonl s1.jsonl cut.jsonl --format text | head -1
echo "== a tampered shard"
sed -E '2s/"seconds":[^,]*/"seconds":0.5/' s1.jsonl > tampered.jsonl
cmp -s s1.jsonl tampered.jsonl && echo "the tamper changed nothing"
kc merge s0.jsonl tampered.jsonl s2.jsonl
echo "== a shard of another plan (--seed 1)"
"$KC" check suite.yaml --shard 1/3 --seed 1 --format jsonl --out seed1.jsonl > /dev/null
kc merge s0.jsonl seed1.jsonl s2.jsonl 2>&1 | sed -E 's/plan [0-9a-f]{16}/plan P/g'
echo "== a shard of another contract version"
sed 's/acme.softmax.rows@1/acme.softmax.rows@2/' softmax.kcontract > softmax2.kcontract
sed 's/contract: softmax.kcontract/contract: softmax2.kcontract/' suite.yaml > suite2.yaml
"$KC" check suite2.yaml --shard 1/3 --format jsonl --out v2.jsonl > /dev/null
kc merge s0.jsonl v2.jsonl s2.jsonl
echo "== an output that exists, and nothing to merge"
kc merge s0.jsonl --out merged.jsonl
: > empty.jsonl
kc merge empty.jsonl
echo "== the merge as HTML and JUnit"
kc merge s0.jsonl s1.jsonl s2.jsonl --format html --out merged.html > /dev/null
echo "html: $(grep -c '<tr data-verdict' merged.html) case rows"
"$KC" merge s0.jsonl s1.jsonl s2.jsonl --format junit | python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
print("junit:", [(s.get("tests"), s.get("failures")) for s in root.iter("testsuite")])'
