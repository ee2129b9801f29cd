/* Violating kc_gelu_tanh (std.op.gelu_tanh@1): the exact (erf) GELU submitted for the tanh
 * approximation (F.gelu(x, approximate='tanh')). The two differ by at most about 5e-4 (near
 * |x| = 2), far inside allclose's 1e-2, and far outside std.op.gelu_tanh@1's bound:
 * signature erf-instead-of-tanh. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_gelu_tanh(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
      kc_st(y, r * y->strides[0] + c * y->strides[1], 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
    }
  return KC_OK;
}
