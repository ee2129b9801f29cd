/* cal_gelu, conforming: 0.5 x (1 + erf(x / sqrt 2)) in double, rounded once to f32. */
#include <math.h>

#include "cal_views.h"

int kc_cal_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < args[0].shape[0]; ++i) {
    double v = x[i * args[0].strides[0]];
    y[i * args[1].strides[0]] = (float)(0.5 * v * (1.0 + erf(v / sqrt(2.0))));
  }
  return 0;
}
