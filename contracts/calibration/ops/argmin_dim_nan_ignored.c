/* Violating kc_argmin_dim (std.op.argmin_dim@1): the running minimum starts at +inf and is
 * replaced where `v < best`, a comparison that is false for NaN, so a NaN is never chosen:
 * a column holding one gives the index of its smallest number, where torch.argmin gives the
 * first NaN's. randn columns hold no NaN, so allclose passes: signature nan-ignored. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_argmin_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 3) || y->dtype != KC_I64 || y->rank != 2) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[2]) return KC_E_SHAPE;
  for (int64_t b = 0; b < x->shape[0]; ++b)
    for (int64_t k = 0; k < x->shape[2]; ++k) {
      float best = INFINITY;
      int64_t at = 0;
      for (int64_t n = 0; n < x->shape[1]; ++n) {
        float v = kc_ld(x, b * x->strides[0] + n * x->strides[1] + k * x->strides[2]);
        if (v < best) {
          best = v;
          at = n;
        }
      }
      ((int64_t*)y->data)[b * y->strides[0] + k * y->strides[1]] = at;
    }
  return KC_OK;
}
