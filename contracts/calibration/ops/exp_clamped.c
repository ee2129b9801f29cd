/* Violating kc_exp (std.op.exp@1): clamps the input to 88 "to avoid overflow" with fminf,
 * which returns the other operand when one is NaN: a NaN input comes out as e^88, and
 * +Inf as e^88 instead of Inf. Exact on randn (allclose passes): std.exc.nan-propagation@1,
 * signature nan-swallowed. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_exp(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
      kc_st(y, r * y->strides[0] + c * y->strides[1], expf(fminf(v, 88.0f)));
    }
  return KC_OK;
}
