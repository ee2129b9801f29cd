# Nothing fixed to detect (issue 19, docs/security.md): the poison, the canaries, the
# mapping's name and the worker's title are drawn per run from the seed. A kernel that
# behaves only when it sees the old fixed values (0x7FA5A5A5 poison, C3 3C 5A A5 canaries, a
# process named kcontract, memfd:kc-run) never sees them, and fails; a kernel that writes
# the old poison into cells it computes has written them (a FAIL, not "never written"; its
# cases of NaN inputs pass, as std.exc.nan-propagation@1 judges them by isnan alone, a known
# gap in docs/checking.md's "Not yet").
k=../e2e/kernels/relu_detects_checker.c
args=(../../examples/relu/relu.kcontract --dtype f32 --dims N=1..300)
summary() {
  python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.stdin]
cells = [c for r in rs for c in r["worst"]]
print(len(rs), "cases:", " ".join(sorted(set(r["verdict"] for r in rs))),
      "| worst cells never written:", sum(c["unwritten"] for c in cells), "of", len(cells))'
}
for entry in kc_relu_watch_poison kc_relu_watch_canary kc_relu_watch_names kc_relu_old_poison; do
  echo "$entry: $("$KC" check "${args[@]}" --impl "$k:$entry" --format jsonl | summary)"
done
echo "--- the marks are in the reproducer; a replay uses them and rebuilds the same bytes"
line=$("$KC" check "${args[@]}" --impl "$k:kc_relu_old_poison" --format jsonl | grep -m1 '"verdict":"FAIL"')
repro=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["repro"])' "$line")
grep -o ' marks=[0-9a-f]*' <<<"$repro" | sed -E 's/=[0-9a-f]{16}$/=<16 hex digits>/'
kc replay "$repro" | head -1 | cut -c1-60
echo "--- a replay with other marks rebuilds other bytes in the inputs' gaps: refused"
sm=(../../examples/softmax/softmax.kcontract --impl ../../examples/softmax/softmax_no_max.c --dtype f32 --dims R=64,H=32..33)
padded=$("$KC" check "${sm[@]}" --format jsonl | grep '"x":"padded(7)"' | grep -m1 '"verdict":"FAIL"')
repro=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["repro"])' "$padded")
kc replay "$repro" | head -1 | sed -E 's/fnv1a64:[0-9a-f]{16}/fnv1a64:<digest>/g'
kc replay "$(sed -E 's/marks=[0-9a-f]{16}/marks=0123456789abcdef/' <<<"$repro")" | sed -E 's/fnv1a64:[0-9a-f]{16}/fnv1a64:<digest>/g'
