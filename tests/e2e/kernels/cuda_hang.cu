/* A CUDA kernel that never finishes: every thread waits for a flag no one sets, as a
 * grid-wide barrier does when more blocks are launched than can be resident. The checker's
 * watchdog must report TIMEOUT, kill the worker (its context goes with it) and go on. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kcontract/abi.h"

__device__ volatile int kc_never_set = 0;

__global__ void wait_forever(float* y) {
  while (kc_never_set == 0) {
  }
  y[threadIdx.x] = 0.0f;
}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2) return 1;
  wait_forever<<<1, 32, 0, (cudaStream_t)stream>>>((float*)args[1].data);
  return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
