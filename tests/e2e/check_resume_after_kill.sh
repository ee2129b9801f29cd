# A run killed with SIGKILL mid-way and resumed with --resume reports every case exactly
# once, and the resumed file holds the same verdicts as an uninterrupted run.
cp ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax.c "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {impl: softmax.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..64, H: 1..1025}}}
YAML
"$KC" check suite.yaml --format jsonl --out full.jsonl >/dev/null
total=$(wc -l <full.jsonl)
# The checker runs under a subshell that reaps it with its stderr discarded: bash reports
# "Killed" for a child it reaps after a signal, at a moment of its own choosing.
( "$KC" check suite.yaml --format jsonl --out killed.jsonl >/dev/null & echo $! >kc.pid; wait ) 2>/dev/null &
runner=$!
# Kill it once a few results are on disk.
for _ in $(seq 1 400); do
  [[ -s kc.pid && -f killed.jsonl && $(wc -l <killed.jsonl) -ge 3 ]] && break
  sleep 0.02
done
kill -9 "$(cat kc.pid)"
wait "$runner"
before=$(wc -l <killed.jsonl)
kc check suite.yaml --resume killed.jsonl >/dev/null
after=$(wc -l <killed.jsonl)
unique=$(grep -o '"case":"[^"]*"' killed.jsonl | sort -u | wc -l)
echo "killed after some cases: $([[ $before -lt $total ]] && echo yes || echo "no ($before of $total)")"
echo "after --resume: $after lines, $unique distinct cases, $total in an uninterrupted run"
verdicts() { grep -o '"case":"[^"]*".*"verdict":"[A-Z]*"' "$1" | sed -E 's/"contract".*"verdict"/ /' | sort; }
if diff <(verdicts full.jsonl) <(verdicts killed.jsonl) >/dev/null; then echo "same verdicts"; else echo "verdicts differ"; fi
