/* A kernel whose launch the runtime refuses: 4096 threads per block is more than any device
 * allows, so cudaGetLastError returns cudaErrorInvalidConfiguration. The entry prints the
 * CUDA error on stderr and returns the error code: the case is an ERROR ("the kernel
 * returned 9"), with the message in the kernel's output. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "kcontract/abi.h"

__global__ void nothing(void) {}

extern "C" int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)args;
  (void)nargs;
  nothing<<<1, 4096, 0, (cudaStream_t)stream>>>(); /* BUG: blockDim 4096 > 1024 */
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "cuda_bad_launch: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return (int)e;
  }
  return 0;
}
