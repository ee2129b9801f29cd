/* cal_relu, violating std.exc.nan-propagation@2: relu by the sign bit, `signbit(x) ? 0 : x`,
 * a common bit trick (and what a mask of the sign bits does in SIMD code). A positive NaN
 * passes through, so nan-propagation@1's positive NaNs never see it; a NaN with its sign bit
 * set becomes 0. randn never makes a NaN, so allclose passes. */
#include <math.h>

#include "cal_views.h"

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      float v = *cal_at2(x, r, h);
      *cal_at2(y, r, h) = signbit(v) ? 0.0f : v;
    }
  return 0;
}
