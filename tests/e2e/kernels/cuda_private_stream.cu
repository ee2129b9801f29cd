/* acme_softmax on CUDA, computing the right values but on the WRONG STREAM: the attack kernel
 * of issue 9 (stream discipline, docs/design.md §1).
 *
 * It ignores the stream it is given, makes a private one (cudaStreamCreate) and queues the
 * work there behind a ~100 ms stretch of other work (a busy wait standing in for a long
 * computation), then returns without synchronising. A harness that synchronises the whole
 * device (cudaDeviceSynchronize, or a cudaMemcpy on the legacy default stream, which waits
 * for every blocking stream) sees correct outputs. The checker waits for the kernel's stream
 * only, reads the outputs before the private stream has written them, and FAILs the case. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "kcontract/abi.h"

__global__ void busy_wait(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (int i = 0; i < 400000; ++i) {  /* bounded, in case the timer does not move */
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start >= ns) break;
    __nanosleep(1000);
  }
}

/* One thread per row, softmax.c's algorithm (NaN-propagating max, double exp and sum). */
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
  (void)stream; /* BUG: the stream the checker passes is ignored */
  static cudaStream_t mine = NULL;
  if (nargs != 2 || args[0].dtype != KC_F32 || args[0].rank != 2) return 2;
  if (mine == NULL && cudaStreamCreate(&mine) != cudaSuccess) return 5;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return 0;
  busy_wait<<<1, 1, 0, mine>>>(100ull * 1000 * 1000);
  softmax_serial<<<(unsigned)((R + 127) / 128), 128, 0, mine>>>((const float*)x->data, (float*)y->data, R, H,
                                                                x->strides[0], x->strides[1], y->strides[0],
                                                                y->strides[1]);
  return cudaGetLastError() == cudaSuccess ? 0 : 4; /* BUG: returns with the work still queued */
}
