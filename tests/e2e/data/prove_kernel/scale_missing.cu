/* std.cal.scale (y = 2x) on CUDA, violating (missing scale): the copy loop of the scale
 * kernel with the factor forgotten, y = x. Its twin is contracts/calibration/cuda/scale.cu.
 * Any test whose inputs are all zero passes it. */
#include "../../../../contracts/calibration/cuda/cal_cuda.h"

__global__ void scale64(const float* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = x[i]; /* BUG: the factor 2 is missing */
}

extern "C" int kc_cal_scale(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 1) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  if (args[0].strides[0] != 1 || args[1].strides[0] != 1) return 2; /* contiguous only */
  int64_t n = args[0].shape[0];
  if (n == 0) return 0;
  int64_t blocks = (n + 255) / 256;
  scale64<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, (cudaStream_t)stream>>>((const float*)args[0].data,
                                                                                       (float*)args[1].data, n);
  return cal_launched("scale_missing");
}
