/* Violating kc_scale (std.op.scale@1): assumes x and y are dense row-major and indexes them
 * as flat arrays, the usual shortcut of a kernel tested only on fresh tensors. Right on
 * contiguous inputs (allclose passes); on a transposed, padded or offset view it reads and
 * writes the wrong elements: std.mem.strides@1, signature ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_scale(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float s = kc_scalar(&args[1]);
  const int64_t n = x->shape[0] * x->shape[1];
  for (int64_t i = 0; i < n; ++i) kc_st(y, i, s * kc_ld(x, i));
  return KC_OK;
}
