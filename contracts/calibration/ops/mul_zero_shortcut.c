/* Violating kc_mul (std.op.mul@1): skips the multiply where either operand is zero and
 * writes 0, the shortcut a sparsity-aware kernel takes. Every finite product is right, so
 * randn and allclose are satisfied; but 0 * NaN is NaN in IEEE arithmetic, and this kernel
 * writes 0 there: std.exc.nan-propagation@1, signature nan-swallowed. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_mul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2) || a->dtype != c->dtype || b->dtype != c->dtype)
    return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < c->shape[0]; ++i)
    for (int64_t j = 0; j < c->shape[1]; ++j) {
      float x = kc_ld(a, i * a->strides[0] + j * a->strides[1]);
      float y = kc_ld(b, i * b->strides[0] + j * b->strides[1]);
      kc_st(c, i * c->strides[0] + j * c->strides[1], (x == 0.0f || y == 0.0f) ? 0.0f : x * y);
    }
  return KC_OK;
}
