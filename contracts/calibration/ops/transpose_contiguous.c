/* Violating kc_transpose (std.op.transpose@1): assumes both views are dense row-major and
 * ignores their strides, the usual shortcut of a kernel tested only on fresh tensors. Exact
 * on contiguous inputs (allclose passes); on a transposed, padded or offset view it reads
 * and writes the wrong elements: std.mem.strides@1, signatures wrong-element and
 * ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_transpose(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (y->shape[0] != C || y->shape[1] != R) return KC_E_SHAPE;
  const size_t eb = x->dtype == KC_F32 ? 4 : 2;
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j)
      memcpy((char*)y->data + (size_t)(j * R + i) * eb, (const char*)x->data + (size_t)(i * C + j) * eb, eb);
  return KC_OK;
}
