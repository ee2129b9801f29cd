/* cal_relu on CUDA, violating std.exc.nan-propagation@1: fmaxf(x, 0.f), the one-line relu,
 * returns 0 for a NaN input (fmax returns the other operand when one is NaN). */
#include "cal_cuda.h"

__global__ void relu2d(const float* x, float* y, int64_t R, int64_t C, int64_t xr, int64_t xc, int64_t yr, int64_t yc) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < R * C; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = i / C, c = i % C;
    y[r * yr + c * yc] = fmaxf(x[r * xr + c * xc], 0.0f);
  }
}

extern "C" int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  int64_t R = args[0].shape[0], C = args[0].shape[1];
  if (R * C == 0) return 0;
  int64_t blocks = (R * C + 255) / 256;
  relu2d<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, R, C, args[0].strides[0], args[0].strides[1],
      args[1].strides[0], args[1].strides[1]);
  return cal_launched("cal_relu");
}
