# check --jobs N (docs/scale.md, "Several jobs at once"): the example suite's 8 jobs, two at
# a time, report what one at a time reports: the same text (timings aside), the same JSON
# Lines records (the run's id and the chain aside), the same exit status.
kc check ../../examples/suite.yaml --expect --max-memory 1G --format jsonl --out "$WORK/one.jsonl" >"$WORK/one.txt"
echo "jobs 1: exit $?"
kc check ../../examples/suite.yaml --expect --max-memory 1G --format jsonl --out "$WORK/two.jsonl" --jobs 2 >"$WORK/two.txt"
echo "jobs 2: exit $?"
strip() { sed -E 's/[0-9]+\.[0-9]+ s\b/# s/g' "$1"; }
if diff <(strip "$WORK/one.txt") <(strip "$WORK/two.txt") >"$WORK/text.diff"; then echo "text: the same"; else echo "text: DIFFERS"; head -20 "$WORK/text.diff"; fi
python3 - "$WORK/one.jsonl" "$WORK/two.jsonl" <<'PY'
import json, sys
def records(path):
    out = []
    for line in open(path):
        r = json.loads(line)
        for k in ("seconds", "run", "chain", "phases"):
            r.pop(k, None)
        out.append(json.dumps(r, sort_keys=True))
    return out
a, b = records(sys.argv[1]), records(sys.argv[2])
print(f"jsonl: {len(a)} and {len(b)} records,", "the same, in the same order" if a == b else "DIFFERENT")
PY
grep -E '^expectations:' "$WORK/two.txt"
# --jobs takes a count from 1.
kc check ../../examples/suite.yaml --jobs 0 2>&1 | head -1
