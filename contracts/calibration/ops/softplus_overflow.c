/* Violating kc_softplus (std.op.softplus@1): log1p(e^x) with no threshold: accurate for
 * negative x, but once x > 88 e^x overflows f32 and the result is Inf where the exact
 * result is x: signature overflow. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return log1pf(expf(v));
}

int kc_softplus(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
