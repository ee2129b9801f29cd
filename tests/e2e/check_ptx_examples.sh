# The CUDA examples on the ptx backend (docs/ptx.md), no GPU needed: examples/suite_ptx.yaml,
# the .cu kernels of examples/suite_cuda.yaml with its expected verdicts (the H200's:
# scripts/gpu_check.sh), the dims narrowed for the interpreter. The correct kernels PASS; each
# buggy one FAILs with the signature its contract names (--expect: exit 0).
kc check ../../examples/suite_ptx.yaml --expect --format jsonl --out "$WORK/ptx.jsonl" | sed -n '/^kernel /,$p'
# Each kernel's verdict here (FAIL when a case FAILs, PASS when all do) beside the one
# suite_cuda.yaml expects of the H200.
for k in softmax softmax_no_max matmul matmul_k_tail layernorm layernorm_one_pass relu relu_nan; do
  want="$(grep -A3 "impl: [a-z]*/$k.cu" ../../examples/suite_cuda.yaml | grep -o 'expect: [a-z]*' | head -1)"
  lines="$(grep "\"kernel\":\"[^\"]*/$k.cu:" "$WORK/ptx.jsonl")"
  got=pass
  grep -q '"verdict":"FAIL"' <<<"$lines" && got=fail
  grep -qv '"verdict":"\(PASS\|FAIL\)"' <<<"$lines" && got=other
  echo "$k.cu: H200 (suite_cuda.yaml) ${want#expect: }, ptx $got: $([[ $got == "${want#expect: }" ]] && echo same || echo DIFFERENT)"
done
