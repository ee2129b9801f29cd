/* cal_gelu, conforming: 0.5 x (1 + erf(x / sqrt 2)) in double, rounded once to f32. */
#include <math.h>

#include "cal_views.h"

int kc_cal_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      double v = *cal_at2(x, r, c);
      *cal_at2(y, r, c) = (float)(0.5 * v * (1.0 + erf(v / sqrt(2.0))));
    }
  return 0;
}
