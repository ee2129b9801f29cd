/* Violating kc_tanh (std.op.tanh@1): tanh(x) = 1 - 2 / (e^2x + 1), algebraically exact and
 * safe from overflow, but for small |x| it subtracts two numbers near 1: the absolute error
 * is an f32 rounding (about 6e-8, inside allclose), the relative error 6e-8 / |x|:
 * signature cancellation. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return 1.0f - 2.0f / (expf(2.0f * v) + 1.0f);
}

int kc_tanh(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
