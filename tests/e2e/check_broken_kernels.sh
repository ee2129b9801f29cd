# Kernels that crash, hang, return nonzero, write their inputs or leave cells unwritten each
# get their verdict, and the run goes on after each. Small cases of the softmax example only.
cp kernels/*.c ../../examples/softmax/softmax.kcontract "$WORK/"
cd "$WORK"
cat > suite.yaml <<YAML
kcontract-suite: 1
kernels:
  - {impl: crash.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..31}}}
  - {impl: hang.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..1}}}
  - {impl: nonzero.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..31}}}
  - {impl: zero_inputs.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..1, H: 1..31}}}
  - {impl: unwritten_tail.c, contract: softmax.kcontract, supports: {dtypes: [f32], dims: {R: 1..3, H: 2..40}}}
YAML
kc check suite.yaml --timeout 1

# The same kernels with one worker process kept while runs end cleanly (--workers reuse, the
# CUDA default): every crash, hang and nonzero return still gets its verdict, the same report.
kc check suite.yaml --timeout 1 > fresh.txt 2>&1
kc check suite.yaml --timeout 1 --workers reuse > reused.txt 2>&1
if diff <(sed -E 's/[0-9]+\.[0-9]+ s/# s/g' fresh.txt) <(sed -E 's/[0-9]+\.[0-9]+ s/# s/g' reused.txt) >/dev/null; then
  echo "--workers reuse: the same report"
else
  echo "--workers reuse: a different report"
  diff fresh.txt reused.txt
fi
