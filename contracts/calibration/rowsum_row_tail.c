/* cal_rowsum, violating std.mem.tail-mask@1: rows are processed four at a time and the
 * remainder loop is missing, so when R is not a multiple of 4 the last rows are never
 * written. Every friendly test shape (R = 64, 128, ...) is a multiple of 4. */
#include "cal_views.h"

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r + 4 <= x->shape[0]; r += 4)
    for (int64_t i = 0; i < 4; ++i) {
      float acc = 0;
      for (int64_t h = 0; h < x->shape[1]; ++h) acc += *cal_at2(x, r + i, h);
      ((float*)y->data)[(r + i) * y->strides[0]] = acc;
    }
  return 0;
}
