/* cal_rowsum on CUDA, violating std.ord.batch-invariance@1: the work split depends on the
 * batch, as a GEMV heuristic's does. For fewer than 4 rows each thread sums a contiguous
 * chunk of the row (the split-K layout a small batch uses to keep every thread busy); for a
 * larger batch the threads stride over the row. Both then add their partials with the same
 * tree; each launch is deterministic and within the gamma(H) bound, but a row's bits change
 * with the number of rows launched beside it. */
#include "cal_cuda.h"

__global__ void rowsum(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t ys, int split) {
  __shared__ float part[256];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    float acc = 0.0f;
    if (split) {
      int64_t chunk = (H + blockDim.x - 1) / blockDim.x, lo = threadIdx.x * chunk;
      for (int64_t h = lo; h < H && h < lo + chunk; ++h) acc += x[r * xr + h * xh];
    } else {
      for (int64_t h = threadIdx.x; h < H; h += blockDim.x) acc += x[r * xr + h * xh];
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) y[r * ys] = part[0];
    __syncthreads();
  }
}

extern "C" int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  rowsum<<<(unsigned)(R < 65535 ? R : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, R, H, args[0].strides[0], args[0].strides[1], args[1].strides[0],
      R < 4 ? 1 : 0);
  return cal_launched("cal_rowsum");
}
