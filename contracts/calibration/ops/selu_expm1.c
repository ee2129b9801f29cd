/* Violating kc_selu (std.op.selu@1): the negative side as alpha (e^x - 1) with expf rather
 * than expm1f. For small negative x it subtracts two numbers near 1: an absolute error of
 * an f32 rounding (inside allclose), a large relative one: signature cancellation. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return 1.0507009873554804934f * (v > 0.0f ? v : 1.6732632423543772848f * (expf(v) - 1.0f));
}

int kc_selu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
