/* Violating kc_softmax (std.op.softmax@1): exp(x) / sum(exp(x)) without subtracting the row
 * maximum. Exact enough on randn; once some x exceeds 88, expf overflows to Inf and the
 * row becomes Inf / Inf = NaN: signature overflow. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t H = x->shape[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float s = 0.0f;
    for (int64_t h = 0; h < H; ++h) s += expf(kc_ld(x, xb + h * x->strides[1]));
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], expf(kc_ld(x, xb + h * x->strides[1])) / s);
  }
  return KC_OK;
}
