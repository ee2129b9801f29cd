# kcontract prove --kernel (docs/ptx.md, "Symbolic mode"): a CUDA kernel's PTX run
# symbolically at a reduced shape and held to the contract through cvc5. A correct row sum
# (a shared-memory tree) is PROVED, and so is one split over two blocks at H = 67, its
# additions written as one summation idiom (without it the solver has no answer); the dropped K tail of matmul_k_tail.cu and a float4 relu
# that forgets the tail are REFUTED, each with a counterexample file that then fails through
# `replay --inputs` on the ptx backend; the one-pass layernorm, where the solver has no
# answer, is REFUTED by a concrete probe (a large common offset) run on the ptx backend;
# softmax is UNKNOWN with the reason; a --kernel that is
# not there is an input error. The counterexample's values come from the solver (which of the
# portfolio's runners answers first varies), so only their count is shown.
R=../..
C=$R/contracts/calibration
show() { sed -E '/^    [a-z]+(\[[0-9, ]*\])? = /d; s/^  solver: (sat|unsat) \([^)]*\)/  solver: \1/'; }

echo "== proved: calibration rowsum.cu"
kc prove $C/rowsum.kcontract --kernel $C/cuda/rowsum.cu | show

echo "== proved through the summation idiom: rowsum_split_ok.cu at H = 67 (two blocks' shared-memory trees, 66 roundings)"
kc prove $C/rowsum.kcontract --kernel data/prove_kernel/rowsum_split_ok.cu --dims R=1,H=67 | show
echo "-- every rounding its own constant (--no-idioms): the solver has no answer in 2 s"
kc prove $C/rowsum.kcontract --kernel data/prove_kernel/rowsum_split_ok.cu --dims R=1,H=67 --no-idioms --no-probes --timeout 2 | grep -E "terms|verdict"

echo "== refuted: matmul_k_tail.cu (dropped K tail)"
kc prove $R/examples/matmul/matmul.kcontract --kernel $R/examples/matmul/matmul_k_tail.cu --cex "$WORK/k_tail.json" | show
echo "counterexample cells: $(grep -c '"0x' "$WORK/k_tail.json")"
kc replay --inputs "$WORK/k_tail.json" --backend ptx >"$WORK/k_tail.txt"; head -1 "$WORK/k_tail.txt"; grep -m1 "violated: forall" "$WORK/k_tail.txt"

echo "== refuted: relu_vec_tail.cu (tail mask: unwritten cells)"
kc prove $C/relu.kcontract --kernel data/prove_kernel/relu_vec_tail.cu --cex "$WORK/tail.json" | show
ls "$WORK" | grep "^tail"
kc replay --inputs "$WORK/tail.std.cal.relu_2.json" --backend ptx | head -1

echo "== the correct twin: relu_vec_tail_ok.cu"
kc prove std.cal.relu@2 -I $R/contracts --kernel data/prove_kernel/relu_vec_tail_ok.cu | show

echo "== refuted by a concrete probe: layernorm_one_pass.cu (one-pass variance; the solver has no answer)"
kc prove $R/examples/layernorm/layernorm.kcontract --kernel $R/examples/layernorm/layernorm_one_pass.cu --timeout 2 --cex "$WORK/one_pass.json" | show
grep '"found_by"' "$WORK/one_pass.json"
kc replay --inputs "$WORK/one_pass.json" --backend ptx | sed -n '1p;/matches:/p'
echo "-- without the probes: UNKNOWN"
kc prove $R/examples/layernorm/layernorm.kcontract --kernel $R/examples/layernorm/layernorm_one_pass.cu --timeout 2 --no-probes | grep verdict
kc prove $C/scale.kcontract --no-probes

echo "== unknown: softmax.cu"
kc prove $R/examples/softmax/softmax.kcontract --kernel $R/examples/softmax/softmax.cu | show

echo "== errors"
kc prove $C/scale.kcontract --kernel no/such/kernel.cu
kc prove $C/scale.kcontract --kernel $C/scale.c
kc prove $C/scale.kcontract --kernel $C/cuda/scale.cu --dims N=x
kc replay --inputs no/such/file.json
kc prove $C/scale.kcontract --dims N=3
kc replay
