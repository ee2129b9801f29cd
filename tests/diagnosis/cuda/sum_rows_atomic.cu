/* Diagnosis corpus (CUDA), BUGGY (nondeterministic): the row sum split over blocks along
 * the row (4 blocks per row, for occupancy on short-R tensors), each block reducing its part
 * in shared memory and adding it into y[r] with atomicAdd after y is zeroed: the order of
 * the float additions follows the blocks' timing, so the bits change run to run.
 * Twin: sum_rows.cu. */
#include "diag_cuda.h"

__global__ void zero_rows(float* y, int64_t R, int64_t ys) {
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < R; r += (int64_t)gridDim.x * blockDim.x) y[r * ys] = 0.0f;
}

__global__ void sum_rows(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float part[256];
  const int64_t chunk = (H + gridDim.y - 1) / gridDim.y, h0 = blockIdx.y * chunk, h1 = h0 + chunk < H ? h0 + chunk : H;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    float acc = 0.0f;
    for (int64_t h = h0 + threadIdx.x; h < h1; h += blockDim.x) acc += x[r * xr + h * xh];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&y[r * ys], part[0]); /* BUG: order of the adds varies */
    __syncthreads();
  }
}

extern "C" int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return DG_E_NARGS;
  if (!dg_view_ok(&args[0], 2) || !dg_view_ok(&args[1], 1)) return DG_E_TENSOR;
  const int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (args[1].shape[0] != R) return DG_E_SHAPE;
  if (R == 0) return DG_OK;
  zero_rows<<<dg_blocks(R, 256), 256, 0, (cudaStream_t)stream>>>((float*)args[1].data, R, args[1].strides[0]);
  sum_rows<<<dim3((unsigned)(R < 65535 ? R : 65535), 4), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, R, H, args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  return dg_launched("sum_rows");
}
