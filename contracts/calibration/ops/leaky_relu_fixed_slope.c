/* Violating kc_leaky_relu (std.op.leaky_relu@1): the slope written into the kernel as torch's
 * default 0.01 instead of read from the input. Right at slope 0.01 (the allclose case), wrong
 * on every negative cell at any other: signature slope-ignored. */
#include "elementwise_map.h"

static float bug(float v, float slope) {
  (void)slope; /* read by nobody: the bug */
  return v > 0.0f ? v : 0.01f * v;
}

int kc_leaky_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_cal_map(args, nargs, 1, bug);
}
