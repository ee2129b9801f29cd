/* Violating kc_hardtanh (std.op.hardtanh@1): fminf(fmaxf(x, -1), 1). fmaxf returns the
 * number when one argument is NaN, so NaN becomes -1: signature nan-swallowed. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return fminf(fmaxf(v, -1.0f), 1.0f);
}

int kc_hardtanh(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
