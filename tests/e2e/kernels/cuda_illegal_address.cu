/* A kernel that writes through a pointer to no device memory at all: the device raises a
 * sticky "an illegal memory access was encountered" after the entry has returned 0. The
 * checker's worker sees it when it synchronises the kernel's stream: the case is a CRASH
 * with that message, and the next case gets a fresh worker (and a fresh CUDA context). */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kcontract/abi.h"

__global__ void write_ones(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args;
  (void)nargs;
  float* nowhere = (float*)(uintptr_t)0x100; /* BUG: not a device allocation */
  write_ones<<<1, 64, 0, (cudaStream_t)stream>>>(nowhere, 64);
  return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
