# The streamed case path (docs/checking.md, "Large cases") forced onto small cases on the host
# backend with --stream-cells: inputs generated through Backend::fillGenerated, poison,
# canaries and repeats checked by the device-check defaults, the oracle on sampled rows of
# the free dim R. Every case it runs must get the verdict and the signatures the normal path
# gives; the cases it cannot run (padded layouts, special values) are SKIPPED with the reason.
# The correct softmax passes; unwritten_tail.c, which leaves the last column unwritten when
# H % 32 != 0, fails on exactly the same cases; zero_inputs.c, which zeroes its input, fails
# with input-modified; relu.c passes on every kind of generated input (two free dims).
cp kernels/unwritten_tail.c kernels/zero_inputs.c ../../examples/softmax/softmax.kcontract ../../examples/softmax/softmax.c "$WORK/"
cp ../../contracts/calibration/scale.kcontract ../../contracts/calibration/scale.c "$WORK/"
cp data/relu_fills.kcontract ../../contracts/calibration/relu.c ../../contracts/calibration/cal_views.h "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {impl: softmax.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..64, H: 1..300}}}
  - {impl: unwritten_tail.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..64, H: 2..300}}}
  - {impl: zero_inputs.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 1..31}}}
  - {impl: scale.c, contract: scale.kcontract}
  - {impl: relu.c, contract: relu_fills.kcontract}
YAML
kc check suite.yaml --format jsonl --out normal.jsonl >/dev/null
kc check suite.yaml --stream-cells 16 --format jsonl --out streamed.jsonl >/dev/null
# One line per case: kernel, case, verdict, signatures.
summary() {
  sed -E 's/.*"case":"([^"]*)".*"kernel":"([^"]*)".*"verdict":"([^"]*)".*"signatures":(\[[^]]*\]).*/\2 \1 \3 \4/' "$1"
}
summary normal.jsonl >normal.txt
summary streamed.jsonl >streamed.txt
paste -d'|' normal.txt streamed.txt | while IFS='|' read -r n s; do
  read -r kernel id verdict sigs <<<"$n"
  read -r _ _ sverdict ssigs <<<"$s"
  if [[ "$sverdict" == SKIPPED && "$verdict" != SKIPPED ]]; then
    reason=$(grep -F "\"case\":\"$id\"" streamed.jsonl | grep -F "\"kernel\":\"$kernel\"" | sed -E 's/.*"reason":"([^"]*)".*/\1/')
    echo "streamed SKIPPED  $kernel $id ($reason)"
  elif [[ "$verdict $sigs" == "$sverdict $ssigs" ]]; then
    echo "same              $kernel $id $verdict $sigs"
  else
    echo "DIFFERENT         $kernel $id normal: $verdict $sigs  streamed: $sverdict $ssigs"
  fi
done
echo "the reasons of the streamed path's passes:"
grep -o '"reason":"judged on [^"]*"' streamed.jsonl | sort | uniq -c | sort -rn | head -3
echo "a failure names its cells at their full indices:"
kc check softmax.kcontract --impl unwritten_tail.c:kc_acme_softmax --stream-cells 16 --dtype f32 2>/dev/null | grep -m1 -A8 '^FAIL.*R=64 H=33'
