/* cal_relu, violating std.cc.subnormal-flush@1: what a build with -ffast-math does on x86
 * (crtfastmath sets MXCSR's flush-to-zero and denormals-are-zero): subnormal inputs read
 * as 0, so a tiny positive x comes out 0. Normal values are untouched, so allclose passes. */
#include <float.h>
#include <math.h>

#include "cal_views.h"

static float daz(float v) { return fabsf(v) < FLT_MIN ? 0.0f : v; }

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      float v = daz(*cal_at2(x, r, h));
      *cal_at2(y, r, h) = isnan(v) ? v : (v > 0 ? v : 0.0f);
    }
  return 0;
}
