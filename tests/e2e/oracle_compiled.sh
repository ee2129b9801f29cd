# The compiled oracle (docs/oracle.md, "The compiled oracle") on the host target: every
# standard op's and every example's contract lowered to C++, built, and compared with the f64
# interpreter cell for cell on the inputs of every plan case up to 1 MiB (kcontract oracle;
# exit 0: every cell agrees). The CUDA target is the same text built by nvcc:
# scripts/gpu_check_oracle.sh runs it on the GPU machine.
# How many cells are bitwise identical depends on the machine's BLAS (its order of additions): not shown.
kc oracle ../../stdlib/ops/*.kcontract ../../examples/*/*.kcontract --max-memory 1M | grep -v "^  SKIPPED" | sed -E 's/ \([0-9]+ identical\)//'
echo "--- a target other than host or cuda"
kc oracle ../../examples/relu/relu.kcontract --target gpu
