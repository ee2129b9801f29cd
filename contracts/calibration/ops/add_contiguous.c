/* Violating kc_add (std.op.add@1): assumes all three views are dense row-major and indexes
 * them as flat arrays, the usual shortcut of a kernel tested only on fresh tensors. Exact on
 * contiguous inputs (allclose passes); on a transposed, padded or offset view it reads and
 * writes the wrong elements: std.mem.strides@1, signature ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  const int64_t n = c->shape[0] * c->shape[1];
  for (int64_t i = 0; i < n; ++i) kc_st(c, i, kc_ld(a, i) + kc_ld(b, i));
  return KC_OK;
}
