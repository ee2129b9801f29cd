/* acme_softmax on CUDA with an instruction outside the ptx backend's subset (docs/ptx.md):
 * inline PTX `brkpt` (a breakpoint), which nvcc passes through as written. On the ptx
 * backend every case is ERROR, the message naming the instruction and its line in the PTX;
 * tests/e2e/check_ptx_errors.sh. (On a GPU the kernel would trap.) */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kcontract/abi.h"

__global__ void trap_rows(float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) asm volatile("brkpt;");
  if (i < n) y[i] = 0.0f;
}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2) return 1;
  int64_t n = args[1].shape[0] * args[1].shape[1];
  if (n == 0) return 0;
  trap_rows<<<(unsigned)((n + 255) / 256), 256, 0, (cudaStream_t)stream>>>((float*)args[1].data, n);
  return cudaGetLastError() == cudaSuccess ? 0 : 4;
}
