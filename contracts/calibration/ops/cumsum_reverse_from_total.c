/* Violating kc_cumsum_reverse (std.op.cumsum_reverse@1): the suffix sums as the row's total
 * minus the inclusive prefix before each cell, both in f32 (one forward pass, no flip). On
 * randn rows of 32 the difference is off by an ulp of the total, inside allclose's; where the
 * suffix is small beside the total (the last cells of a long row, a large mean) that ulp is
 * most of the answer: signature low-precision-accumulator (the error grows with H). */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_cumsum_reverse(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t H = x->shape[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float total = 0.0f;
    for (int64_t h = 0; h < H; ++h) total += kc_ld(x, xb + h * x->strides[1]);
    float before = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
      kc_st(y, yb + h * y->strides[1], total - before);
      before += kc_ld(x, xb + h * x->strides[1]);
    }
  }
  return KC_OK;
}
