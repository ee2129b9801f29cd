/* acme_softmax on CUDA: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the GPU
 * twin of softmax_no_max.c.
 *
 * The structure of softmax.cu (one block per row, a double row sum, one division per cell,
 * rounded once to T, f32 or bf16) but it skips the row-maximum subtraction and takes the
 * exponentials in f32, expf(x). On normal(0, 1) inputs it agrees with a float64 reference to an ulp or
 * so, so torch.allclose passes; but expf overflows to +Inf for x > 88.72, the row sum is
 * then +Inf and the row comes out NaN (Inf/Inf) or 0. The contract's uniform(90, 120)
 * inputs catch it; its `overflow` signature names the failure. */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_LAUNCH = 4 };
enum { kThreads = 256, kWarps = kThreads / 32 };

static int view2d_ok(const kc_tensor* t) {
  if ((t->dtype != KC_F32 && t->dtype != KC_BF16) || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

/* Element access in T (f32 or bf16); the arithmetic is in float and double. */
__device__ float load(const float* p) { return *p; }
__device__ float load(const __nv_bfloat16* p) { return __bfloat162float(*p); }
__device__ void store(float* p, double v) { *p = (float)v; }
__device__ void store(__nv_bfloat16* p, double v) { *p = __double2bfloat16(v); }  /* one rounding */

__device__ double block_sum(double v, double* scratch) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kWarps ? scratch[lane] : 0.0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) scratch[0] = v;
  }
  __syncthreads();
  v = scratch[0];
  __syncthreads();
  return v;
}

template <class T>
__global__ void __launch_bounds__(kThreads) softmax_rows_no_max(const T* x, T* y, int64_t R, int64_t H, int64_t xr,
                                                                 int64_t xh, int64_t yr, int64_t yh) {
  __shared__ double ssum[kWarps];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    const T* xrow = x + r * xr;
    T* yrow = y + r * yr;
    /* BUG: no row maximum; expf(x) overflows for x > 88.72. */
    double s = 0.0;
    for (int64_t h = threadIdx.x; h < H; h += kThreads) s += (double)expf(load(xrow + h * xh));
    s = block_sum(s, ssum);
    for (int64_t h = threadIdx.x; h < H; h += kThreads) store(yrow + h * yh, (double)expf(load(xrow + h * xh)) / s);
  }
}

template <class T>
static void launch(const kc_tensor* xt, const kc_tensor* yt, int64_t R, int64_t H, cudaStream_t stream) {
  unsigned grid = (unsigned)(R < 65535 ? R : 65535);
  softmax_rows_no_max<T><<<grid, kThreads, 0, stream>>>((const T*)xt->data, (T*)yt->data, R, H, xt->strides[0],
                                                        xt->strides[1], yt->strides[0], yt->strides[1]);
}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* xt = &args[0];
  const kc_tensor* yt = &args[1];
  if (!view2d_ok(xt) || !view2d_ok(yt) || xt->dtype != yt->dtype) return KC_E_TENSOR;
  const int64_t R = xt->shape[0], H = xt->shape[1];
  if (yt->shape[0] != R || yt->shape[1] != H) return KC_E_SHAPE;
  if (R == 0 || H == 0) return KC_OK;

  if (xt->dtype == KC_F32) launch<float>(xt, yt, R, H, (cudaStream_t)stream);
  else launch<__nv_bfloat16>(xt, yt, R, H, (cudaStream_t)stream);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "softmax_no_max.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
