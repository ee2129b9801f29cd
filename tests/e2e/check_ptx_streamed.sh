# The ptx backend's streamed path on small cases (docs/ptx.md, "Large cases"): --stream-cells
# forces it, so every buffer is lazy (made real only where touched) and the checks run on
# chunk descriptions. The verdicts and signatures must equal the normal path's on every case
# the streamed path can judge (cases with special values are SKIPPED there, never passed).
R=../..
cat >"$WORK/suite.yaml" <<YAML
kcontract-suite: 1
backend: ptx
kernels:
  - name: relu
    impl: $(cd $R && pwd)/examples/relu/relu.cu
    contract: $(cd $R && pwd)/examples/relu/relu.kcontract
    supports: {dtypes: [f32], dims: {N: 1..5000}}
  - name: softmax
    impl: $(cd $R && pwd)/examples/softmax/softmax.cu
    entry: kc_acme_softmax
    contract: $(cd $R && pwd)/examples/softmax/softmax.kcontract
    supports: {dtypes: [f32], dims: {R: 1..4, H: 1..300}}
  - name: matmul_k_tail
    impl: $(cd $R && pwd)/examples/matmul/matmul_k_tail.cu
    contract: $(cd $R && pwd)/examples/matmul/matmul.kcontract
    supports: {dtypes: [f32], dims: {M: 1..17, N: 1..65, K: 1..65}}
YAML
verdicts() { grep -E '^(PASS|FAIL|SKIPPED|CRASH|ERROR|TIMEOUT|MISTRUSTED) ' | awk '{print $1, $2}'; }
kc check "$WORK/suite.yaml" --timeout 60 >"$WORK/normal.txt" 2>&1
kc check "$WORK/suite.yaml" --timeout 60 --stream-cells 100 >"$WORK/streamed.txt" 2>&1
echo "== streamed, every case"
verdicts <"$WORK/streamed.txt"
echo "== cases judged both ways whose verdicts differ (none expected)"
join -j 2 <(verdicts <"$WORK/normal.txt" | sort -k2) <(verdicts <"$WORK/streamed.txt" | sort -k2) | awk '$2 != $3 && $3 != "SKIPPED"'
sed -n '/^kernel /,/^total/p' "$WORK/streamed.txt"
