/* Violating kc_gelu (std.op.gelu@1): the tanh approximation submitted as the exact (erf)
 * GELU. The two differ by at most about 5e-4 (near |x| = 2), far inside allclose's 1e-2,
 * and hundreds of f32 roundings outside std.op.gelu@1's bound: signature
 * tanh-approximation. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float k = 0.79788456080286536f; /* sqrt(2 / pi) */
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
      kc_st(y, r * y->strides[0] + c * y->strides[1], 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v))));
    }
  return KC_OK;
}
