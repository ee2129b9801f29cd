/* Violating kc_amax (std.op.amax@1): the row maximum with fmaxf, which returns the other
 * operand when one is NaN, so a NaN in the row is dropped: std.exc.nan-propagation@1,
 * signature nan-swallowed. (torch.amax propagates NaN.) */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_amax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float m = -INFINITY;
    for (int64_t h = 0; h < x->shape[1]; ++h) m = fmaxf(m, kc_ld(x, r * x->strides[0] + h * x->strides[1]));
    kc_st(y, r * y->strides[0], m);
  }
  return KC_OK;
}
