/* cal_rowsum, violating std.prec.accumulator@1: accumulates in half precision (an f16
 * accumulator, as a kernel that keeps its partial sums in __half registers does). On a
 * 64-wide row of normals the error stays near 1e-3, far inside allclose's 1e-2; on exact
 * integers or rows with a large mean the sum is visibly wrong. */
#include "cal_views.h"

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    _Float16 acc = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) acc = (_Float16)(acc + (_Float16)*cal_at2(x, r, h));
    ((float*)y->data)[r * y->strides[0]] = (float)acc;
  }
  return 0;
}
