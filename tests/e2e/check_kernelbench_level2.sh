# KernelBench level 2 as fused kernels (examples/kernelbench_level2/, docs/ops.md): each
# contract's oracle applies the standard ops it fuses (docs/language.md, "Applying an op").
# The reference kernels pass; a GELU in its tanh form fails, named by its contract's
# signature. Then the softmax example's oracle as compiled: the ops' definitions inlined under
# the names they are applied to (g, y, and y.m, y.e, y.s for softmax's own).
L2=../../examples/kernelbench_level2
kc check "$L2/suite.yaml" --expect >"$WORK/out.txt"
sed -n '/^kernel /,/^expectations/p; /^diagnosis: /p; /^    cause: /p; /^\[exit/p' "$WORK/out.txt"
kc ir "$L2/matmul_gelu_softmax.kcontract" | grep '^  oracle '
