/* acme_relu on CUDA: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the GPU twin of
 * relu_nan.c.
 *
 *   kc_acme_relu(x: f32[N]) -> (y: f32[N]),  meant to be y[i] = max(x[i], 0), NaN kept.
 *
 * fmaxf(v, 0), the idiom most CUDA ReLUs use: IEEE maxNum returns the number when one
 * argument is NaN, so a NaN input comes out as 0. randn never produces NaN, so allclose
 * passes; the contract's special(nan: 1%) inputs (std.exc.nan-propagation@1) catch it with
 * the `nan-swallowed` signature. Everything else is as in relu.cu. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_LAUNCH = 4 };
enum { kThreads = 256 };

static int view1d_ok(const kc_tensor* t) {
  return t->dtype == KC_F32 && t->rank == 1 && t->shape != NULL && t->strides != NULL && t->shape[0] >= 0 &&
         (t->shape[0] <= 1 || t->strides[0] >= 1) && (t->shape[0] == 0 || t->data != NULL);
}

__global__ void relu(const float* x, float* y, int64_t n, int64_t xs, int64_t ys) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const float v = x[i * xs];
    y[i * ys] = fmaxf(v, 0.0f); /* BUG: fmaxf(NaN, 0) is 0 */
  }
}

extern "C" int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!view1d_ok(&args[0]) || !view1d_ok(&args[1])) return KC_E_TENSOR;
  const int64_t n = args[0].shape[0];
  if (args[1].shape[0] != n) return KC_E_SHAPE;
  if (n == 0) return KC_OK;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  const unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  relu<<<grid, kThreads, 0, (cudaStream_t)stream>>>((const float*)args[0].data, (float*)args[1].data, n,
                                                     args[0].strides[0], args[1].strides[0]);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "relu_nan.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
