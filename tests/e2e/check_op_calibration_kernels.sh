# `kcontract check --op` on the calibration kernels of contracts/calibration/ (f32: what they
# implement): every conforming kernel passes the standard op's contract, and every violating
# one fails it with its class's signature among those named. The op contracts apply the
# classes these kernels calibrate (docs/ops.md, docs/catalog.md). The signatures column is
# compared whole: a class named beside the right one (a subnormal flush reported as
# `ignores-strides` too) fails this test. `unclassified` marks a failing case that no class
# it was made for explains (rowsum_f16_acc overflowing to inf on the contract's own values,
# relu_aligned on rows of 7 floats: not a class's inputs, so no class is named). The column
# holds the diagnosis's causes, primary first: relu_aligned is named tail-over-read (it reads
# outside its views and fails when H % 4 != 0; an address rounded down is a cause the
# diagnosis has no re-run for), gemm_tf32 operand-coercion (the narrow-input re-run).
cal=../../contracts/calibration
op() {  # OP ENTRY KERNEL...
  local name="$1" entry="$2"; shift 2
  for k in "$@"; do
    kc check --op "$name" --dtype f32 --impl "$k:$entry" | sed -n '/^kernel /,/^total/p' | sed '1d;$d'
  done
}
op relu kc_cal_relu $cal/relu.c $cal/relu_nan_swallow.c $cal/relu_ftz.c $cal/relu_contiguous.c $cal/relu_aligned.c $cal/relu_scratch.c $cal/relu_half.c
op gelu kc_cal_gelu $cal/gelu.c $cal/gelu_tanh.c
op sum kc_cal_rowsum $cal/rowsum.c $cal/rowsum_f16_acc.c $cal/rowsum_racy.c $cal/rowsum_batch_split.c $cal/rowsum_row_tail.c $cal/rowsum_overrun.c
# Batch invariance is an opt-in (std.op.sum@2 does not apply it): rowsum_batch_split passes
# @2 above and fails std.op.sum@1, which applies std.ord.batch-invariance@1.
op sum@1 kc_cal_rowsum $cal/rowsum_batch_split.c
op softmax kc_acme_softmax ../../examples/softmax/softmax.c ../../examples/softmax/softmax_no_max.c
op matmul kc_cal_gemm $cal/gemm.c $cal/gemm_tf32.c
