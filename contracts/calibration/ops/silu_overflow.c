/* Violating kc_silu (std.op.silu@1): x e^x / (1 + e^x), algebraically the same as
 * x / (1 + e^-x). Fine on randn; once x > 88, e^x overflows f32 and the quotient is
 * Inf / Inf = NaN: signature overflow. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_silu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
      float e = expf(v);
      kc_st(y, r * y->strides[0] + c * y->strides[1], v * e / (1.0f + e));
    }
  return KC_OK;
}
