/* acme_layernorm on CUDA: the correct kernel (examples/layernorm/layernorm.kcontract), the
 * GPU twin of layernorm.c.
 *
 *   kc_acme_layernorm(x: f32[R, H], eps: f32) -> (y: f32[R, H])
 *   y[r, h] = (x[r, h] - mu[r]) / sqrt(var[r] + eps),  mu and var the row's mean and
 *   (biased, divide-by-H) variance
 *
 * One block per row (a grid-stride loop over rows), two-pass statistics in f32: the row sum
 * (each thread sums a strided part of the row, then the block adds the partials in a fixed
 * tree: warp shuffles, then one warp over the warps' sums) gives the mean; a second sweep
 * sums the squared deviations from that mean the same way, giving the variance; then one
 * division per cell by sqrtf(var + eps), eps inside the square root. The deviations are
 * taken from the computed mean, so a large mean does not cancel the variance away (the
 * one-pass E[x^2] - mean^2 does: layernorm_one_pass.cu). f32 statistics meet the contract's
 * tolerance, which allows a mean error of gamma(H, f32) times the mean magnitude divided by
 * the standard deviation; a tree sum is far inside that. The reduction order is fixed, so
 * repeated runs give the same bits. A NaN in a row makes every cell of that row NaN. Each
 * cell of y is written exactly once and nothing outside the view is touched; strides may be
 * anything positive; indices are 64-bit.
 *
 * eps is a rank-0 f32 tensor: a host pointer to one float (docs/design.md §5), read here and
 * passed to the kernel by value. The work goes on the stream the checker passes and the
 * entry returns without waiting: the checker synchronises that stream. Only f32 is
 * supported; anything else (dtype, rank, nargs, y's shape not x's, a negative or NaN eps)
 * returns nonzero without touching memory, and so does a launch the runtime refuses (its
 * error is printed on stderr). */
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

__global__ void __launch_bounds__(kThreads) layernorm_rows(const float* x, float* y, int64_t R, int64_t H, int64_t xr,
                                                            int64_t xh, int64_t yr, int64_t yh, float eps) {
  __shared__ float scratch[kWarps];
  const float n = (float)H;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    const float* xrow = x + r * xr;
    float* yrow = y + r * yr;
    float s = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += kThreads) s += xrow[h * xh];
    const float mean = block_sum(s, scratch) / n;
    float q = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += kThreads) {
      const float d = xrow[h * xh] - mean;
      q = fmaf(d, d, q);
    }
    const float var = block_sum(q, scratch) / n;
    const float sd = sqrtf(var + eps);
    for (int64_t h = threadIdx.x; h < H; h += kThreads) yrow[h * yh] = (xrow[h * xh] - mean) / sd;
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
  layernorm_rows<<<grid, kThreads, 0, (cudaStream_t)stream>>>((const float*)xt->data, (float*)yt->data, R, H,
                                                              xt->strides[0], xt->strides[1], yt->strides[0],
                                                              yt->strides[1], eps);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "layernorm.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
