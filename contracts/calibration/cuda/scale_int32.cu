/* cal_scale on CUDA, violating: the same grid-stride loop with the element count and the
 * index held in `int`, as kernels written against `int n = x.numel()` are. Right below 2^31
 * elements; above, n wraps: for 2^31 <= N < 2^32 it is negative and nothing is written, for
 * N >= 2^32 it is N - 2^32 and only that prefix is written. A plain allclose at a friendly
 * shape passes it. */
#include "cal_cuda.h"

__global__ void scale32(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = 2.0f * x[i];
}

extern "C" int kc_cal_scale(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  if (args[0].strides[0] != 1 || args[1].strides[0] != 1) return 2; /* contiguous only */
  int n = (int)args[0].shape[0]; /* BUG: truncates counts of 2^31 elements and more */
  if (n <= 0) return 0;
  int blocks = (n + 255) / 256;
  scale32<<<blocks < 65535 * 16 ? blocks : 65535 * 16, 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, n);
  return cal_launched("cal_scale");
}
