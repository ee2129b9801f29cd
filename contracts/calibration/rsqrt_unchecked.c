/* cal_rsqrt, violating std.iface.precondition-report@1: never checks its inputs, so a 0 or
 * an infinity comes back as inf or 0 with a success code, and the caller never learns that
 * its inputs were invalid. On valid inputs it is exact to the last bit, so allclose passes. */
#include <math.h>

#include "cal_views.h"

int kc_cal_rsqrt(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < args[0].shape[0]; ++i)
    y[i * args[1].strides[0]] = (float)(1.0 / sqrt((double)x[i * args[0].strides[0]]));
  return 0;
}
