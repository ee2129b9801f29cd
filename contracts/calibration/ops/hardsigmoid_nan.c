/* Violating kc_hardsigmoid (std.op.hardsigmoid@1): the clamp written with fmaxf and fminf,
 * which return the number when one argument is NaN, so NaN becomes 0: signature
 * nan-swallowed. */
#include "elementwise_map.h"

static float bug(float v, float p) {
  (void)p;
  return fminf(fmaxf(v / 6.0f + 0.5f, 0.0f), 1.0f);
}

int kc_hardsigmoid(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 0, bug);
}
