# The machine formats: JSON Lines, JUnit XML and SARIF for one small run.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax_no_max.c "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {impl: softmax_no_max.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..33}}}
YAML
"$KC" check suite.yaml --format junit --out report.xml >/dev/null; echo "junit exit $?"
python3 - <<'PY'
import xml.etree.ElementTree as ET
root = ET.parse("report.xml").getroot()
for s in root.iter("testsuite"):
    print("testsuite", s.get("tests"), "tests", s.get("failures"), "failures", s.get("skipped"), "skipped")
    print("  data-folder:", [p.get("value") for p in s.iter("property") if p.get("name") == "data-folder"])
for c in root.iter("testcase"):
    f = c.find("failure")
    print(" ", c.get("name").split()[0], "FAIL" if f is not None else "ok", f.get("type") if f is not None else "")
PY
"$KC" check suite.yaml --format sarif --out report.sarif >/dev/null; echo "sarif exit $?"
python3 - <<'PY'
import json
s = json.load(open("report.sarif"))
run = s["runs"][0]
print(s["version"], run["tool"]["driver"]["name"], [r["id"] for r in run["tool"]["driver"]["rules"]])
print("  dataFolder:", run["properties"]["dataFolder"])
for r in run["results"]:
    print(" ", r["level"], r["ruleId"], r["properties"]["case"], r["properties"]["signatures"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
PY
"$KC" check suite.yaml --format jsonl | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(r["case"], r["verdict"], r["signatures"], len(r["worst"]), "worst cells")'
