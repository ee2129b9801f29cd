# The diagnosis's re-runs and built-in checks that name a cause (docs/checking.md, "How a
# cause is chosen"), each on a corpus kernel with that bug; the diagnosis block is printed.
diag() {  # diag OP FILE: the diagnosis block of `check --op OP --impl FILE --dtype f32`
  local file="$2"
  [[ "$file" == */* ]] || file="../diagnosis/host/$file"
  echo "== $2"
  kc check --op "$1" --impl "$file" --dtype f32 --threads 1 >"$WORK/out.txt"
  awk '/^diagnosis: /{p=1} p&&/^(PASS|FAIL|ERROR|CRASH|SKIP|TIMEOUT|kernel )/{p=0} p' "$WORK/out.txt"
}
# A kept result: the repeat launch leaves its fresh poison (output-never-computed, built in).
diag matmul matmul_result_cache.c
grep -m1 'wrote none of' "$WORK/out.txt"
# Operands rounded to bf16: the run with the inputs rounded first gives the same bits.
diag matmul matmul_bf16_operands.c
# An exp-sum without its tail loop; the case chosen has strided views: re-run contiguous first.
diag softmax softmax_sum_ktail.c
# A last vector read whole: finite values in the padding change the outputs.
diag amax amax_tail_overread.c
# One block per row on grid y, unchecked: R = 65,535 passes, R = 65,536 writes nothing.
diag softmax ../../contracts/calibration/ops/softmax_grid_rows.c
# The value re-runs (checker/diagnose/value_probes.cpp), each on the bug it names:
# x sigmoid(1.702 x) for GELU: reversing the inputs reverses the outputs (approximate-math).
diag gelu gelu_sigmoid.c
# Attention without 1/sqrt(D): q scaled by it passes, on two values of D (missing-scale).
diag attention attention_no_scale.c
# The panel epilogue writes acc = part: with every input 1, K doubled leaves the output (accumulate-overwrite).
diag matmul matmul_acc_overwrite.c
# tanh as (e^2u - 1) / (e^2u + 1): NaN at large u, passing on inputs scaled down (overflow).
diag gelu_tanh gelu_tanh_exp_form.c
# The shift by the row's first element, not its maximum: it fails in ascending order and passes
# in descending order, as a missing rescale would, but also with the scores pressed into a
# spread of 8 (no shift overflows there): not online-softmax-rescale; and its failures are Inf
# where the exact value is finite, so passing on -1..1 is no rounding evidence: unclassified.
diag softmax data/softmax_first_shift.c
# The reciprocal of the row sum kept in half: reversing the inputs reverses the outputs (a row
# softmax is equivariant), but its oracle reduces, so the reversal shows no pointwise
# approximation: not approximate-math.
diag softmax data/softmax_half_reciprocal.c
# An exp-sum in _Float16 lanes: the error grows with H when only H changes (the growth re-run).
diag softmax softmax_f16_lanes.c
# Aligned SSE loads on rows that are not: crashes, and runs with every row aligned (misaligned-access).
diag add add_sse_aligned.c
# A generic strided loop that does each step in bf16 (a dense fast path in f32): it fails only
# in strided views, but reads its own cells there (one input cell changed moves the same
# output cell as in contiguous views): not ignores-strides; nothing else has evidence.
# One failing case among conv2d_bias's mostly padded ones: `fails only when PH > 0 || PW > 0`
# holds on it by chance (5 of the 9 bf16 cases are padded): not zero-padding-ignored. Needs the
# passing cases' conditions (a PASS keeps its seeds').
echo "== data/conv2d_bias_one_case.c (bf16)"
kc check --op conv2d_bias --impl data/conv2d_bias_one_case.c --dtype bf16 --threads 1 --max-memory 256M >"$WORK/out.txt"
grep -E "^diagnosis: |^    not named: zero-padding-ignored" "$WORK/out.txt"
echo "== data/silu_strided_bf16_steps.c (bf16)"
kc check --op silu --impl data/silu_strided_bf16_steps.c --dtype bf16 --threads 1 >"$WORK/out.txt"
awk '/^diagnosis: /{p=1} p&&/^(PASS|FAIL|ERROR|CRASH|SKIP|TIMEOUT|kernel )/{p=0} p' "$WORK/out.txt"
# Large integer sums: an int16 accumulator wraps (overflow: it passes with its inputs divided
# by 16, and fails with them as large but coarser); an f32 accumulator rounds past 2^24 and
# passes on the coarser inputs, so it is not named overflow (this contract has no signature
# for it: unclassified). The case that reaches 2^24 is a protocol's `case`.
cat >"$WORK/i8.kcontract" <<'KC'
kcontract 1

import std.ops.int8_gemm

contract acme.int8_gemm@1 {
  scope {
    op std.ops.int8_gemm
  }
  post {
    forall i, j: |c[i, j] - c*[i, j]| <= tol[i, j]
  }
  protocol {
    dims M in {3}, N in {5}, K in {1024}
    values a ~ integers(-128, 127), b ~ integers(-128, 127)
    case M in {17}, N in {16}, K in {4097}, a ~ cancel_rows(64, 127), b ~ integers(127, 127)
  }
}
KC
for k in int8_gemm_i16_acc int8_gemm_f32_acc; do
  echo "== $k (acme.int8_gemm@1)"
  kc check "$WORK/i8.kcontract" --impl "../diagnosis/host/$k.c:kc_int8_gemm" --threads 1 >"$WORK/out.txt"
  awk '/^diagnosis: /{p=1} p&&/^(PASS|FAIL|ERROR|CRASH|SKIP|TIMEOUT|kernel )/{p=0} p' "$WORK/out.txt"
done
