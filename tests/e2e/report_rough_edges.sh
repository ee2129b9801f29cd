# The rough edges a new user hit (issue 23), one check each.
EX=../../examples
cp $EX/softmax/softmax.kcontract $EX/softmax/softmax.c $EX/softmax/softmax_no_max.c "$WORK/"
echo "--- --format text --out FILE writes the text report to FILE, nothing to stdout, no colour"
(cd "$WORK" && "$KC" check softmax.kcontract --impl softmax_no_max.c --dtype f32 --dims 'R=1..1,H=1..33' \
  --format text --out report.txt --color always; echo "exit $?")
sed -n '1p;/^kernel /,/^total/p' "$WORK/report.txt" | cut -c1-110
grep -c $'\e\[' "$WORK/report.txt"
echo "--- a global option after the subcommand"
kc check "$WORK/softmax.kcontract" --impl "$WORK/softmax.c" --dtype f32 --dims 'R=1..1,H=1..33' --color never | tail -1
echo "--- explain on an op contract: by its ID, unversioned, and by the op's name"
kc explain std.op.rmsnorm@2 | head -1
kc explain std.op.rmsnorm | head -1
kc explain rmsnorm | head -1
echo "--- explain on the user's own contract, found with -I"
kc explain acme.softmax.rows -I "$WORK" | head -3
kc explain acme.softmax.rows
echo "--- kcontract ops lists the standard ops"
kc ops | sed -n '1,3p;$p'
echo "--- check --help on --op"
kc check --help | grep -- '--op '
echo "--- replay from another folder"
(cd "$WORK" && "$KC" check softmax.kcontract --impl softmax_no_max.c --dtype f32 --dims 'R=1..1,H=1..33' --format jsonl --out run.jsonl >/dev/null)
repro=$(grep -m1 '"verdict":"FAIL"' "$WORK/run.jsonl" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["repro"])')
echo "$repro" | grep -o "dir=[^ ]*"
(cd / && kc replay "$repro" | head -1)
echo "--- SARIF locations relative to the source root"
(cd "$WORK" && "$KC" check softmax.kcontract --impl softmax_no_max.c --dtype f32 --dims 'R=1..1,H=1..33' --format sarif --out r.sarif >/dev/null)
python3 - "$WORK/r.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
print("bases:", sorted(run["originalUriBaseIds"]))
loc = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
print("location:", loc["uri"], loc["uriBaseId"])
PY
echo "--- a suite's summary names its kernels by name:"
cat >"$WORK/suite.yaml" <<YAML
kcontract-suite: 1
kernels:
  - {name: stable softmax, impl: softmax.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..33}}}
  - {name: no max, impl: softmax_no_max.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..33}}}
YAML
(cd "$WORK" && "$KC" check suite.yaml | sed -n '/^kernel /,/^total/p' | cut -c1-100)
echo "--- a PASS line in JSON Lines carries its closest approach to the tolerance"
(cd "$WORK" && "$KC" check softmax.kcontract --impl softmax.c --dtype f32 --dims 'R=1..1,H=1..33' --format jsonl) | python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.stdin if l.strip()]
ps = [r for r in rs if r["verdict"] == "PASS"]
print(len(ps), "PASS lines;", sum(1 for r in ps if r["compared"] > 0), "compared cells;",
      sum(1 for r in ps if 0 < r["tolerance_used"] <= 1), "with 0 < tolerance_used <= 1")'
echo "--- a failure block lists each violated postcondition once"
(cd "$WORK" && "$KC" check softmax.kcontract --impl softmax_no_max.c --dtype f32 --dims 'R=1..1,H=1..33') |
  grep 'violated:' | sort | uniq -c | awk '$1 > 1' | wc -l
echo "--- the sub-batch check runs, and no note says it did not"
kc check --op matmul@1 --impl ../../stdlib/ops/kernels/matmul.c --dtype f32 --max-memory 1G | grep "did not run" | grep -c sub_batch
kc check --op matmul@1 --impl ../../stdlib/ops/kernels/matmul.c --dtype f32 --max-memory 1G --format jsonl |
  python3 -c 'import json,sys; print(sorted({json.loads(l)["perturbation"] for l in sys.stdin if "sub_batch" in l}))'
