/* Violating kc_amin_dim (std.op.amin_dim@1): the column minimum with fminf, which returns the
 * other operand when one is NaN, so a NaN in the column is dropped: std.exc.nan-propagation@2,
 * signature nan-swallowed. (torch.amin propagates NaN.) */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_amin_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 3) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[2]) return KC_E_SHAPE;
  for (int64_t b = 0; b < x->shape[0]; ++b)
    for (int64_t k = 0; k < x->shape[2]; ++k) {
      float m = INFINITY;
      for (int64_t n = 0; n < x->shape[1]; ++n) m = fminf(m, kc_ld(x, b * x->strides[0] + n * x->strides[1] + k * x->strides[2]));
      kc_st(y, b * y->strides[0] + k * y->strides[1], m);
    }
  return KC_OK;
}
