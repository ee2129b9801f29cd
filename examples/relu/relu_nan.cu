/* acme_relu on CUDA: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the GPU twin of
 * relu_nan.c.
 *
 *   kc_acme_relu(x: T[N]) -> (y: T[N]),  meant to be y[i] = max(x[i], 0), NaN kept; T f32 or bf16.
 *
 * fmaxf(v, 0), the idiom most CUDA ReLUs use: IEEE maxNum returns the number when one
 * argument is NaN, so a NaN input comes out as 0. randn never produces NaN, so allclose
 * passes; the contract's special(nan: 1%) inputs (std.exc.nan-propagation@1) catch it with
 * the `nan-swallowed` signature. Everything else is as in relu.cu. */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_LAUNCH = 4 };
enum { kThreads = 256 };

static int view1d_ok(const kc_tensor* t) {
  return (t->dtype == KC_F32 || t->dtype == KC_BF16) && t->rank == 1 && t->shape != NULL && t->strides != NULL &&
         t->shape[0] >= 0 && (t->shape[0] <= 1 || t->strides[0] >= 1) && (t->shape[0] == 0 || t->data != NULL);
}

__device__ float load(const float* p) { return *p; }
__device__ float load(const __nv_bfloat16* p) { return __bfloat162float(*p); }
__device__ void store(float* p, float v) { *p = v; }
__device__ void store(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }  // exact: v is a bf16 value

template <class T>
__global__ void relu(const T* x, T* y, int64_t n, int64_t xs, int64_t ys) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const float v = load(x + i * xs);
    store(y + i * ys, fmaxf(v, 0.0f)); /* BUG: fmaxf(NaN, 0) is 0 */
  }
}

template <class T>
static void launch(const kc_tensor* args, int64_t n, unsigned grid, cudaStream_t s) {
  relu<T><<<grid, kThreads, 0, s>>>((const T*)args[0].data, (T*)args[1].data, n, args[0].strides[0], args[1].strides[0]);
}

extern "C" int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!view1d_ok(&args[0]) || !view1d_ok(&args[1]) || args[0].dtype != args[1].dtype) return KC_E_TENSOR;
  const int64_t n = args[0].shape[0];
  if (args[1].shape[0] != n) return KC_E_SHAPE;
  if (n == 0) return KC_OK;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  const unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  if (args[0].dtype == KC_F32) launch<float>(args, n, grid, (cudaStream_t)stream);
  else launch<__nv_bfloat16>(args, n, grid, (cudaStream_t)stream);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "relu_nan.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
