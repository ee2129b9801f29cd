/* Violating kc_matmul_diag (std.op.matmul_diag@1): where the diagonal entry a[i] is 0 the row
 * of c is 0, so the kernel writes zeros and skips loading row i of b, the bandwidth-saving
 * shortcut a diagonal-matrix kernel takes. Every finite product is right, so randn and
 * allclose are satisfied; but 0 * NaN is NaN, and a NaN in a skipped row of b comes out 0:
 * std.exc.nan-propagation@2, signature nan-swallowed. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_matmul_diag(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 1) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (b->shape[0] != a->shape[0] || !kc_same_shape(b, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < c->shape[0]; ++i) {
    const float s = kc_ld(a, i * a->strides[0]);
    for (int64_t j = 0; j < c->shape[1]; ++j)
      kc_st(c, i * c->strides[0] + j * c->strides[1], s == 0.0f ? 0.0f : s * kc_ld(b, i * b->strides[0] + j * b->strides[1]));
  }
  return KC_OK;
}
