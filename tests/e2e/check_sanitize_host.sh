# `check --sanitize TOOL` on the host backend (no GPU needed): compute-sanitizer checks CUDA
# kernels only, so every case it would re-run says so, in every format, and no verdict
# changes. Failing cases are chosen by default, passing ones with --sanitize-case N or
# --sanitize-all; the flags' mistakes are usage errors naming the tools.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax_no_max.c "$WORK/"
cd "$WORK"
args=(softmax.kcontract --impl softmax_no_max.c --dtype f32 --max-memory 16M)
kc check "${args[@]}" --format jsonl --out plain.jsonl >/dev/null
kc check "${args[@]}" --sanitize memcheck --sanitize-case 1 >san.txt
kc check "${args[@]}" --sanitize memcheck --sanitize-case 1 --format jsonl --out san.jsonl >/dev/null
echo "--- the text report: the sanitizer's lines"
grep 'compute-sanitizer' san.txt | sort | uniq -c
echo "--- the case with --sanitize-case 1 passes and still carries the note"
grep -A1 '^PASS       acme.softmax.rows@1#1 ' san.txt | tail -1
echo "--- verdicts unchanged, notes only where chosen (JSON Lines)"
python3 - <<'PY'
import json
plain = {r["case"]: r["verdict"] for r in map(json.loads, open("plain.jsonl"))}
san = [json.loads(l) for l in open("san.jsonl")]
print("same verdicts:", plain == {r["case"]: r["verdict"] for r in san})
chosen = [r for r in san if "sanitizer" in r]
print("cases with a sanitizer note:", len(chosen), "of", len(san))
print("all failing or #1:", all(r["verdict"] in ("FAIL", "CRASH", "TIMEOUT", "ERROR") or r["number"] == 1 for r in chosen))
failing = ("FAIL", "CRASH", "TIMEOUT", "ERROR")
print("failing cases:", sum(1 for r in san if r["verdict"] in failing), "without a note:", sum(1 for r in san if r["verdict"] in failing and "sanitizer" not in r))
print("MISTRUSTED or SKIPPED with a note:", sum(1 for r in san if r["verdict"] in ("MISTRUSTED", "SKIPPED") and "sanitizer" in r))
print(json.dumps(chosen[0]["sanitizer"]))
PY
echo "--- JUnit"
kc check "${args[@]}" --sanitize racecheck --format junit --out run.xml >/dev/null
echo "racecheck notes in the JUnit report: $(grep -c 'compute-sanitizer racecheck: not run' run.xml)"
echo "--- --sanitize-all"
kc check "${args[@]}" --sanitize initcheck --sanitize-all --format jsonl --out all.jsonl >/dev/null
python3 -c 'import json; rs=[json.loads(l) for l in open("all.jsonl")]; print(sum("sanitizer" in r for r in rs), "of", len(rs), "cases carry a note")'
echo "--- mistakes"
kc check "${args[@]}" --sanitize asan
kc check "${args[@]}" --sanitize-case 3
