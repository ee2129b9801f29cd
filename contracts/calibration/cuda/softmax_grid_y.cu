/* Violating kc_softmax on CUDA (std.op.softmax@1, f32): the kernel of ../softmax_rows.cu,
 * launched with one block per row along grid y, <<<dim3(1, R), 256>>>, and no check of the
 * launch. CUDA caps gridDim.y at 65,535: past that many rows the launch fails
 * (cudaErrorInvalidConfiguration), no block runs, every output cell stays unwritten, and the
 * kernel returns 0. Correct at every friendly shape: a plain allclose at 64 x 256 passes; the
 * grid-rows case (R = 65,537) catches it. Host twin: ../../buggy/softmax_grid_rows.c. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

#define THREADS 256

__global__ void softmax_rows(const float* x, float* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t yr,
                             int64_t yh) {
  __shared__ float part[THREADS];
  for (int64_t r = blockIdx.y; r < R; r += gridDim.y) {
    float m = -INFINITY;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) {
      float v = x[r * xr + h * xh];
      m = (isnan(v) || isnan(m)) ? NAN : fmaxf(m, v);
    }
    part[threadIdx.x] = m;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) {
        float a = part[threadIdx.x], b = part[threadIdx.x + w];
        part[threadIdx.x] = (isnan(a) || isnan(b)) ? NAN : fmaxf(a, b);
      }
      __syncthreads();
    }
    m = part[0];
    __syncthreads();
    float s = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) s += expf(x[r * xr + h * xh] - m);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    float inv = 1.0f / part[0];
    __syncthreads();
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) y[r * yr + h * yh] = expf(x[r * xr + h * xh] - m) * inv;
  }
}

extern "C" int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || args[0].dtype != KC_F32 || args[1].dtype != KC_F32 || args[0].rank != 2 || args[1].rank != 2) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0 || H == 0) return 0;
  dim3 grid(1, (unsigned)R);  // one block per row: past 65,535 the launch fails
  softmax_rows<<<grid, THREADS, 0, (cudaStream_t)stream>>>((const float*)args[0].data, (float*)args[1].data, R, H,
                                                          args[0].strides[0], args[0].strides[1], args[1].strides[0],
                                                          args[1].strides[1]);
  return 0;  // the launch is never checked
}
