/* cal_relu, violating std.mem.strides@1: indexes x and y as if they were contiguous
 * (x[r * H + h]), the way a kernel written against .contiguous() tensors does. Tests that
 * only pass contiguous tensors never see the difference. */
#include <math.h>

#include "cal_views.h"

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  for (int64_t i = 0; i < R * H; ++i) y[i] = isnan(x[i]) ? x[i] : (x[i] > 0 ? x[i] : 0.0f);
  return 0;
}
