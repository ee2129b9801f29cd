# Results files a kernel cannot forge and a kill cannot corrupt (docs/security.md, "Results
# files"): every JSON Lines record is chained to the one before it and to the run's nonce;
# --resume refuses a changed file (exit 2, naming the line), cuts off a last line cut short
# by a kill, and --out never overwrites a file unless --replace says so.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax.c "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {impl: softmax.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..33}}}
YAML
kc check suite.yaml --format jsonl --out r.jsonl >/dev/null; echo "exit $?"
echo "--- $(wc -l <r.jsonl) records; the first starts the run; each carries its digest"
python3 - <<'PY'
import json
rs = [json.loads(l) for l in open("r.jsonl")]
print("run" in rs[0], sum("run" in r for r in rs), all(len(r["chain"]) == 64 for r in rs))
PY
echo "--- --out on a file that exists, in every format"
kc check suite.yaml --format jsonl --out r.jsonl >/dev/null; echo "exit $?"
cp r.jsonl r.xml
kc check suite.yaml --format junit --out r.xml >/dev/null; echo "exit $?"
kc check suite.yaml --format sarif --out r.sarif >/dev/null; echo "sarif, new file: exit $?"
kc check suite.yaml --format sarif --out r.sarif >/dev/null; echo "exit $?"
kc check suite.yaml --format sarif --out r.sarif --replace >/dev/null; echo "sarif --replace: exit $?"
kc check suite.yaml --format jsonl --out r2.jsonl >/dev/null; echo "exit $?"
kc check suite.yaml --format jsonl --out r2.jsonl --replace >/dev/null; echo "jsonl --replace: exit $?, $(wc -l <r2.jsonl) records"
kc check suite.yaml --resume r.jsonl --replace >/dev/null; echo "exit $?"
echo "--- --resume of a whole file: nothing runs again, nothing is added"
kc check suite.yaml --resume r.jsonl | tail -1; echo "$(wc -l <r.jsonl) records"
echo "--- a verdict edited in the middle"
sed '2s/"verdict":"PASS"/"verdict":"FAIL"/' r.jsonl >edited.jsonl
kc check suite.yaml --resume edited.jsonl >/dev/null; echo "exit $?"
echo "--- PASS lines forged after the results (the attack of issue 19)"
cp r.jsonl forged.jsonl
for i in 1 2; do tail -1 r.jsonl | sed 's/"chain":"[0-9a-f]*"/"chain":"'"$(printf '0%.0s' {1..64})"'"/' >>forged.jsonl; done
kc check suite.yaml --resume forged.jsonl >/dev/null; echo "exit $?"
echo "--- a file kcontract did not write"
grep -v '"run"' r.jsonl >headless.jsonl
kc check suite.yaml --resume headless.jsonl >/dev/null; echo "exit $?"
echo "--- a run killed in the middle of a line: cut off, that case runs again, the chain goes on"
head -c -30 r.jsonl >cut.jsonl
kc check suite.yaml --resume cut.jsonl >/dev/null; echo "exit $?"
echo "$(wc -l <cut.jsonl) records, $(grep -c '"run"' cut.jsonl) runs"
kc check suite.yaml --resume cut.jsonl | tail -1
