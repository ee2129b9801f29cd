/* Violating kc_elu (std.op.elu@1): alpha (e^x - 1) with expf rather than expm1f. For small
 * negative x it subtracts two numbers near 1: an absolute error of an f32 rounding (inside
 * allclose), a large relative one: signature cancellation. */
#include "elementwise_map.h"

static float bug(float v, float alpha) {
  return v > 0.0f ? v : alpha * (expf(v) - 1.0f);
}

int kc_elu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 1, bug);
}
