/* Violating kc_sum (std.op.sum@2): a row sum that honours the strides of its 2-D input
 * (it was tested on transposed and padded x) but writes its 1-D output as if contiguous,
 * y[r] at element r: a vector's stride is "always 1" to its author. Every result is right
 * and the output of a contiguous vector is where it belongs, so allclose passes; a view
 * of y with stride 2 (every other element of a buffer, y = out[::2]) gets its sums in the
 * wrong cells: std.mem.strides@1, signature ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float s = 0.0f;
    for (int64_t h = 0; h < x->shape[1]; ++h) s += kc_ld(x, r * x->strides[0] + h * x->strides[1]);
    kc_st(y, r, s);
  }
  return KC_OK;
}
