/* cal_scale on the host, conforming: y = 2x with 64-bit indices (any length). */
#include <stdint.h>

#include "kcontract/abi.h"

int kc_cal_scale(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || args[0].dtype != KC_F32 || args[1].dtype != KC_F32 || args[0].rank != 1 || args[1].rank != 1) return 1;
  int64_t n = args[0].shape[0];
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  for (int64_t i = 0; i < n; ++i) y[i * args[1].strides[0]] = 2.0f * x[i * args[0].strides[0]];
  return 0;
}
