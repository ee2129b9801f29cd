/* cal_relu, conforming: y = max(x, 0) with NaN propagated (as torch.relu), any strides. */
#include <math.h>

#include "cal_views.h"

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      float v = *cal_at2(x, r, h);
      *cal_at2(y, r, h) = isnan(v) ? v : (v > 0 ? v : 0.0f);
    }
  return 0;
}
