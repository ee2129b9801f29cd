/* Diagnosis corpus (CUDA), BUGGY (tail-over-read): the block-per-row softmax whose max and
 * sum loops read each thread's run of 4 elements whole ("H is a multiple of 4"): for
 * H % 4 != 0 the last run reads up to 3 elements past the end of the row (the next row,
 * padding, or past the allocation). The store is per element and masked.
 * Twin: softmax_rows.cu. */
#include "diag_cuda.h"

#define V 4

__device__ float block_reduce(float v, float* sh, int is_max) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] = is_max ? dg_nanmax(sh[threadIdx.x], sh[threadIdx.x + w]) : sh[threadIdx.x] + sh[threadIdx.x + w];
    __syncthreads();
  }
  const float r = sh[0];
  __syncthreads();
  return r;
}

__global__ void softmax_rows(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t yr, int64_t yh) {
  __shared__ float sh[256];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    const float* xrow = x + r * xr;
    float m = -INFINITY;
    for (int64_t h = (int64_t)threadIdx.x * V; h < H; h += (int64_t)blockDim.x * V)
      for (int k = 0; k < V; ++k) m = dg_nanmax(m, xrow[(h + k) * xh]); /* BUG: unmasked run */
    m = block_reduce(m, sh, 1);
    float s = 0.0f;
    for (int64_t h = (int64_t)threadIdx.x * V; h < H; h += (int64_t)blockDim.x * V)
      for (int k = 0; k < V; ++k) s += expf(xrow[(h + k) * xh] - m); /* BUG: unmasked run */
    s = block_reduce(s, sh, 0);
    const float inv = 1.0f / s;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) y[r * yr + h * yh] = expf(xrow[h * xh] - m) * inv;
  }
}

extern "C" int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return DG_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!dg_view_ok(x, 2) || !dg_view_ok(y, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(x, y)) return DG_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return DG_OK;
  softmax_rows<<<(unsigned)(R < 65535 ? R : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)x->data, (float*)y->data, R, H, x->strides[0], x->strides[1], y->strides[0], y->strides[1]);
  return dg_launched("softmax_rows");
}
