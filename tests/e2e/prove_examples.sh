# `kcontract prove` on the examples: every obligation's answer, time and verdict. The index
# widths the scopes admit are covered by large-index cases of the plans; the tolerances that
# contain a whole ulp are blind to a one-ulp fault (reported, not a failure); a correct
# implementation provably passes every tolerance (blind-band-correct: unsat).
# --timeout 4 keeps the case short; every answer comes in well under a second.
kc prove --timeout 4 ../../examples/softmax/softmax.kcontract
echo "--- matmul, named by its ID"
kc prove --timeout 4 -I ../../examples acme.gemm@1
echo "--- layernorm"
kc prove --timeout 4 ../../examples/layernorm/layernorm.kcontract
echo "--- a contradictory precondition: the contract is vacuous (a located error, exit 1)"
kc prove --timeout 4 data/vacuous.kcontract
