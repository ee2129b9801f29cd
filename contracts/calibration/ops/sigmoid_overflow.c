/* Violating kc_sigmoid (std.op.sigmoid@1): e^x / (1 + e^x), algebraically the same as
 * 1 / (1 + e^-x). Fine on randn; once x > 88, e^x overflows f32 and the quotient is
 * Inf / Inf = NaN: signature overflow. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return expf(v) / (1.0f + expf(v));
}

int kc_sigmoid(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
