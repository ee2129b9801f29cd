# The CUDA examples on the ptx backend (docs/ptx.md), no GPU needed: examples/suite_ptx.yaml,
# the .cu kernels of examples/suite_cuda.yaml with its expected verdicts (the H200's:
# scripts/gpu_check.sh), the dims narrowed for the interpreter. The correct kernels PASS; each
# buggy one FAILs with the signature its contract names (--expect: exit 0).
kc check ../../examples/suite_ptx.yaml --expect --format jsonl --out "$WORK/ptx.jsonl" | sed -n '/^kernel /,$p'
# The same verdict per kernel as suite_cuda.yaml expects of the H200.
for k in softmax:pass softmax_no_max:fail matmul:pass matmul_k_tail:fail layernorm:pass layernorm_one_pass:fail \
         relu:pass relu_nan:fail; do
  want="$(grep -A3 "impl: [a-z]*/${k%%:*}.cu" ../../examples/suite_cuda.yaml | grep -o 'expect: [a-z]*' | head -1)"
  echo "${k%%:*}.cu: suite_cuda.yaml ${want}, ptx ${k#*:}"
done
