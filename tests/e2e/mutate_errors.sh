# kcontract mutate's input errors (exit 2), each with its exact message: a kernel libclang
# cannot parse (located FILE:LINE:COL), a file that is no kernel source, an entry the file
# does not define, an unknown operator, a mutant id that does not exist, no contract.
mkdir -p "$WORK/k"
cat >"$WORK/k/broken.c" <<'C'
#include "kcontract/abi.h"
int kc_relu(kc_tensor* args, int32_t nargs, void* stream) {
  return nargs +;
}
C
kc mutate "$WORK/k/broken.c" --op relu
echo 'x = 1' >"$WORK/k/relu.py"
kc mutate "$WORK/k/relu.py" --op relu --no-baseline
kc mutate ../../stdlib/ops/kernels/reduce.c --op relu --no-baseline
kc mutate ../../stdlib/ops/kernels/elementwise.c --op relu --operators arith,no-such-op
kc mutate ../../stdlib/ops/kernels/elementwise.c --op relu --mutant arith@1:1
kc mutate ../../stdlib/ops/kernels/elementwise.c
kc mutate ../../stdlib/ops/kernels/elementwise.c --op relu --format pdf
# --naming takes diagnosis or signatures.
kc mutate ../../stdlib/ops/kernels/elementwise.c --op relu --naming bogus 2>&1
