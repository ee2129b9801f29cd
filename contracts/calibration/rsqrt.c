/* cal_rsqrt, conforming: checks the precondition (every x finite and > 0) before writing
 * anything, and returns 3 when an input breaks it; else 1 / sqrt(x) in double, rounded once. */
#include <math.h>

#include "cal_views.h"

enum { KC_E_PRECONDITION = 3 };

int kc_cal_rsqrt(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  int64_t N = args[0].shape[0], xs = args[0].strides[0], ys = args[1].strides[0];
  for (int64_t i = 0; i < N; ++i)
    if (!isfinite(x[i * xs]) || !(x[i * xs] > 0)) return KC_E_PRECONDITION;
  for (int64_t i = 0; i < N; ++i) y[i * ys] = (float)(1.0 / sqrt((double)x[i * xs]));
  return 0;
}
