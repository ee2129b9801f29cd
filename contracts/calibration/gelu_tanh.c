/* cal_gelu, violating std.cc.approximation@1: the tanh approximation of gelu
 * (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) submitted for the erf gelu. Its error
 * is at most about 5e-4, inside allclose's 1e-2, and thousands of f32 ulps. */
#include <math.h>

#include "cal_views.h"

int kc_cal_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < args[0].shape[0]; ++i) {
    float v = x[i * args[0].strides[0]];
    y[i * args[1].strides[0]] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
  return 0;
}
