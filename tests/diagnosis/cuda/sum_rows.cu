/* Diagnosis corpus (CUDA), CONFORMING twin of sum_rows_race.cu and sum_rows_atomic.cu: a row
 * sum, one block of 256 threads per row (grid-stride over rows): per-thread f32 partial sums,
 * then a shared-memory tree with a barrier after every level: the same order on every run. */
#include "diag_cuda.h"

__global__ void sum_rows(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float part[256];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    float acc = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) acc += x[r * xr + h * xh];
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

extern "C" int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return DG_E_NARGS;
  if (!dg_view_ok(&args[0], 2) || !dg_view_ok(&args[1], 1)) return DG_E_TENSOR;
  const int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (args[1].shape[0] != R) return DG_E_SHAPE;
  if (R == 0) return DG_OK;
  sum_rows<<<(unsigned)(R < 65535 ? R : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, R, H, args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  return dg_launched("sum_rows");
}
