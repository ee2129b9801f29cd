/* Reproduction for contracts/incidents/ascend-precision-coercion.md: an "fp32" GEMM whose
 * operands are converted to fp16 before the products, as a runtime's default precision mode
 * that allows fp32 -> fp16 does, with fp32 accumulation. Checked against std.cal.gemm@1. */
#include "../../calibration/cal_views.h"

int kc_cal_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 3) return 1;
  for (int i = 0; i < 3; ++i)
    if (!cal_view_ok(&args[i], KC_F32, 2)) return 1;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += (float)(_Float16)*cal_at2(a, i, k) * (float)(_Float16)*cal_at2(b, k, j);
      *cal_at2(c, i, j) = acc;
    }
  return 0;
}
