# Every non-PASS result carries a reproducer; `kcontract replay` rebuilds the inputs byte
# for byte and gives the same verdict, from the reproducer line or from the JSON line.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax_no_max.c "$WORK/"
cd "$WORK"
"$KC" check softmax.kcontract --impl softmax_no_max.c --dtype f32 --max-memory 16M --format jsonl --out run.jsonl >/dev/null
line=$(grep -m1 '"verdict":"FAIL"' run.jsonl)
repro=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["repro"])' "$line")
echo "$repro"
echo "--- replay from the reproducer"
kc replay "$repro"
echo "--- replay from the JSON line"
kc replay "$line" | head -2
echo "--- a reproducer whose inputs no longer match"
kc replay "${repro/inputs=fnv1a64:/inputs=fnv1a64:0}"
echo "--- not a reproducer"
kc replay 'file=softmax.kcontract case=x'
