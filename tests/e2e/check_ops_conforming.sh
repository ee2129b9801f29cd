# The standard op library: every op's conforming host kernel (stdlib/ops/kernels/) against
# the op's standard contract with `kcontract check --op NAME --impl PATH` (the entry
# defaults to kc_NAME), over the op's whole plan: every dtype it has (f32, bf16, f16), each
# with its share of the cases. Each must be PASS: no FAIL, ERROR, CRASH or TIMEOUT, SKIPPED
# only for the large-index cases (2^31 and more elements) that do not fit --max-memory here,
# and a MISTRUSTED case (one that proves nothing) listed under the table, not the verdict.
# The summary table of each op (header and row), its mistrusted lines, and "[exit N]" when
# a check exits nonzero.
K=../../stdlib/ops/kernels
for spec in add:elementwise mul:elementwise relu:elementwise gelu:elementwise gelu_tanh:elementwise \
  silu:elementwise exp:elementwise sum:reduce mean:reduce amax:reduce softmax:softmax \
  log_softmax:softmax layernorm:norms rmsnorm:norms matmul:matmul bmm:matmul attention:attention \
  attention_causal:attention transpose:transpose cumsum:cumsum int8_gemm:int8_gemm embedding:embedding; do
  op=${spec%%:*}
  kc check --op "$op" --impl "$K/${spec#*:}.c" --max-memory 1G >"$WORK/out.txt"
  sed -n '/^kernel /{N;p}; /^mistrusted: /p; /^\[exit/p' "$WORK/out.txt"
done
# The op may also be named by its qualified name.
kc check --op std.ops.relu --impl "$K/elementwise.c" --max-memory 1G >"$WORK/out.txt"
sed -n '/^kernel /{N;p}; /^\[exit/p' "$WORK/out.txt"
