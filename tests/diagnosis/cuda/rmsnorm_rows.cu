/* Diagnosis corpus (CUDA), CONFORMING twin of rmsnorm_grid_y.cu: rmsnorm, one block of 256
 * threads per row over a grid-stride loop (gridDim.x capped at 65,535, so any R works): the
 * sum of squares reduced in shared memory, y = x / sqrt(ss / H + eps). */
#include "diag_cuda.h"

__global__ void rmsnorm_rows(const float* x, float eps, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t yr, int64_t yh) {
  __shared__ float sh[256];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    float ss = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) {
      const float v = x[r * xr + h * xh];
      ss += v * v;
    }
    sh[threadIdx.x] = ss;
    __syncthreads();
    for (int w = 128; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
      __syncthreads();
    }
    const float rinv = 1.0f / sqrtf(sh[0] / (float)H + eps);
    __syncthreads();
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) y[r * yr + h * yh] = x[r * xr + h * xh] * rinv;
  }
}

extern "C" int kc_rmsnorm(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return DG_E_NARGS;
  const kc_tensor *x = &args[0], *e = &args[1], *y = &args[2];
  if (!dg_view_ok(x, 2) || !dg_view_ok(e, 0) || !dg_view_ok(y, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(x, y)) return DG_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return DG_OK;
  const float eps = *(const float*)e->data; /* rank-0: a host pointer */
  rmsnorm_rows<<<(unsigned)(R < 65535 ? R : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)x->data, eps, (float*)y->data, R, H, x->strides[0], x->strides[1], y->strides[0], y->strides[1]);
  return dg_launched("rmsnorm_rows");
}
