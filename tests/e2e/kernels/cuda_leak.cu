/* acme_softmax on CUDA, correct values, but every call takes 8 MiB of device memory (a
 * scratch buffer) and never frees it. The outputs pass; the checker's device-memory count
 * across the repeats of a case (free memory falls by > 1 MiB per launch and never grows
 * back) FAILs the case with the built-in signature device-memory-leak. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "kcontract/abi.h"

__global__ void softmax_serial(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t yr,
                               int64_t yh) {
  int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R) return;
  const float* xrow = x + r * xr;
  float m = xrow[0];
  for (int64_t h = 1; h < H && !isnan(m); ++h) {
    float v = xrow[h * xh];
    if (isnan(v) || v > m) m = v;
  }
  double s = 0.0;
  for (int64_t h = 0; h < H; ++h) s += exp((double)xrow[h * xh] - (double)m);
  for (int64_t h = 0; h < H; ++h) y[r * yr + h * yh] = (float)(exp((double)xrow[h * xh] - (double)m) / s);
}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || args[0].dtype != KC_F32 || args[0].rank != 2) return 2;
  void* scratch = NULL;
  if (cudaMalloc(&scratch, 8u << 20) != cudaSuccess) return 5; /* BUG: never freed */
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return 0;
  softmax_serial<<<(unsigned)((R + 127) / 128), 128, 0, (cudaStream_t)stream>>>(
      (const float*)x->data, (float*)y->data, R, H, x->strides[0], x->strides[1], y->strides[0], y->strides[1]);
  return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
