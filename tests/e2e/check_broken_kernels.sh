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
