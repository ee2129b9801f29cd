/* Shared by the CUDA calibration kernels of contracts/calibration/cuda/: view checks on the
 * host side of the kcontract ABI (shape and strides are host arrays, data a device pointer). */
#ifndef KC_CAL_CUDA_H
#define KC_CAL_CUDA_H
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

static inline int cal_view_ok(const kc_tensor* t, int32_t dtype, int32_t rank) {
  if (t->dtype != dtype || t->rank != rank || (rank > 0 && (t->shape == NULL || t->strides == NULL))) return 0;
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] < 0) return 0;
    n *= t->shape[d];
  }
  return n == 0 || t->data != NULL;
}

/* 0, or 4 after printing the runtime's complaint about the last launch. */
static inline int cal_launched(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return 0;
  fprintf(stderr, "%s: launch failed: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
  return 4;
}
#endif
