/* cal_rowsum on CUDA, violating std.ord.determinism@1: every block adds its partial sum of a
 * row into y with atomicAdd, so the f32 additions happen in whatever order the blocks finish
 * — a different rounding from run to run, well inside any tolerance. */
#include "cal_cuda.h"

__global__ void zero(float* y, int64_t R, int64_t ys) {
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < R; r += (int64_t)gridDim.x * blockDim.x) y[r * ys] = 0.0f;
}

__global__ void rowsum_atomic(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  int64_t chunks = (H + 31) / 32;
  for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < R * chunks; t += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = t / chunks, h0 = (t % chunks) * 32;
    float acc = 0.0f;
    for (int64_t h = h0; h < H && h < h0 + 32; ++h) acc += x[r * xr + h * xh];
    atomicAdd(&y[r * ys], acc);
  }
}

extern "C" int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  cudaStream_t s = (cudaStream_t)stream;
  float* y = (float*)args[1].data;
  zero<<<(unsigned)((R + 255) / 256 < 65535 ? (R + 255) / 256 : 65535), 256, 0, s>>>(y, R, args[1].strides[0]);
  int64_t work = R * ((H + 31) / 32), blocks = (work + 63) / 64;
  rowsum_atomic<<<(unsigned)(blocks < 65535 ? blocks : 65535), 64, 0, s>>>((const float*)args[0].data, y, R, H,
                                                                          args[0].strides[0], args[0].strides[1],
                                                                          args[1].strides[0]);
  return cal_launched("cal_rowsum");
}
