/* acme_layernorm on CUDA: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the GPU
 * twin of layernorm_one_pass.c.
 *
 * The structure of layernorm.cu (one block per row, f32 block sums in a fixed tree, eps
 * inside the square root) but one-pass statistics: a single sweep sums x and x^2, then
 * var = E[x^2] - mean^2. On normal(0, 1) rows both terms are O(1) and the result agrees
 * with a float64 reference to within allclose's tolerance. On a row with a large mean
 * (normal(1000, 1): E[x^2] ~ 1e6, mean^2 ~ 1e6, their difference ~ 1) the f32 rounding of
 * each term is as large as the difference, so var is noise -- sometimes negative, and then
 * sqrtf gives NaN. The contract's normal(1000, 1) and normal(-1000, 10) rows catch it; its
 * `one-pass-variance` signature names it (fails only when some row has |mean| > 100 sd).
 * Interface and validation are those of layernorm.cu. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_PRE = 4, KC_E_LAUNCH = 5 };
enum { kThreads = 256, kWarps = kThreads / 32 };

static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

/* Block-wide sum (blockDim.x == kThreads) in a fixed order: every thread gets the result. */
__device__ float block_sum(float v, float* scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kWarps ? scratch[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) scratch[0] = v;
  }
  __syncthreads();
  v = scratch[0];
  __syncthreads();  /* scratch is reused by the next reduction */
  return v;
}

__global__ void __launch_bounds__(kThreads)
    layernorm_rows_one_pass(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t yr,
                            int64_t yh, float eps) {
  __shared__ float scratch[kWarps];
  const float n = (float)H;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    const float* xrow = x + r * xr;
    float* yrow = y + r * yr;
    float s = 0.0f, q = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += kThreads) {
      const float v = xrow[h * xh];
      s += v;
      q = fmaf(v, v, q);
    }
    const float mean = block_sum(s, scratch) / n;
    /* BUG: E[x^2] - mean^2 in f32 cancels catastrophically when |mean| >> sd. */
    const float var = block_sum(q, scratch) / n - mean * mean;
    const float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t h = threadIdx.x; h < H; h += kThreads) yrow[h * yh] = (xrow[h * xh] - mean) * rstd;
  }
}

extern "C" int kc_acme_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* xt = &args[0];
  const kc_tensor* et = &args[1];
  const kc_tensor* yt = &args[2];
  if (!view2d_ok(xt) || !view2d_ok(yt)) return KC_E_TENSOR;
  if (et->dtype != KC_F32 || et->rank != 0 || et->data == NULL) return KC_E_TENSOR;
  const int64_t R = xt->shape[0], H = xt->shape[1];
  if (yt->shape[0] != R || yt->shape[1] != H) return KC_E_SHAPE;
  const float eps = *(const float*)et->data; /* a host pointer, like every rank-0 argument */
  if (!(eps >= 0.0f)) return KC_E_PRE;
  if (R == 0 || H == 0) return KC_OK;

  unsigned grid = (unsigned)(R < 65535 ? R : 65535);
  layernorm_rows_one_pass<<<grid, kThreads, 0, (cudaStream_t)stream>>>((const float*)xt->data, (float*)yt->data,
                                                                       R, H, xt->strides[0], xt->strides[1],
                                                                       yt->strides[0], yt->strides[1], eps);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "layernorm_one_pass.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
