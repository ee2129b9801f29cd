/* cal_relu, violating std.mem.input-integrity@1: clamps x in place and copies it to y, using
 * the input as scratch. The output is right, so allclose passes; every later reader of x
 * (and a harness that computes its reference after the kernel) sees relu(x) instead. */
#include <math.h>

#include "cal_views.h"

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      float* v = cal_at2(x, r, h);
      if (!isnan(*v) && !(*v > 0)) *v = 0.0f;
      *cal_at2(y, r, h) = *v;
    }
  return 0;
}
