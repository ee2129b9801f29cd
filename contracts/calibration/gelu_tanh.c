/* cal_gelu, violating std.cc.approximation@1: the tanh approximation of gelu
 * (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))) submitted for the erf gelu. Its error
 * is at most about 5e-4, inside allclose's 1e-2, and thousands of f32 ulps. */
#include <math.h>

#include "cal_views.h"

int kc_cal_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float v = *cal_at2(x, r, c);
      *cal_at2(y, r, c) = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
  return 0;
}
