/* Violating kc_amax_dim (std.op.amax_dim@1): the running maximum of each column starts at 0
 * rather than at the first element (or -inf), as a kernel written for ReLU outputs would. NaN
 * is kept. Right on every column that holds a number >= 0 (on randn columns of 64, all but
 * one in 2^64: allclose passes); a column whose elements are all negative gives 0:
 * signature zero-initialised. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_amax_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 3) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[2]) return KC_E_SHAPE;
  for (int64_t b = 0; b < x->shape[0]; ++b)
    for (int64_t k = 0; k < x->shape[2]; ++k) {
      float m = 0.0f;
      for (int64_t n = 0; n < x->shape[1]; ++n) {
        float v = kc_ld(x, b * x->strides[0] + n * x->strides[1] + k * x->strides[2]);
        if (v > m || isnan(v)) m = v;
        if (isnan(m)) break;
      }
      kc_st(y, b * y->strides[0] + k * y->strides[1], m);
    }
  return KC_OK;
}
