/* Shared by the CUDA kernels of the diagnosis corpus (tests/diagnosis/cuda/): host-side view
 * checks of the kcontract ABI (shape and strides are host arrays, data a device pointer) and
 * the launch check. f32 tensors only. */
#ifndef KC_DIAG_CUDA_H
#define KC_DIAG_CUDA_H
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { DG_OK = 0, DG_E_NARGS = 1, DG_E_TENSOR = 2, DG_E_SHAPE = 3, DG_E_LAUNCH = 4 };

static inline int dg_view_ok(const kc_tensor* t, int32_t rank) {
  if (t->dtype != KC_F32 || t->rank != rank) return 0;
  if (rank == 0) return t->data != NULL;
  if (t->shape == NULL || t->strides == NULL) return 0;
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] < 0 || (t->shape[d] > 1 && t->strides[d] < 1)) return 0;
    n *= t->shape[d];
  }
  return n == 0 || t->data != NULL;
}

static inline int dg_same_shape(const kc_tensor* a, const kc_tensor* b) {
  if (a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; ++d)
    if (a->shape[d] != b->shape[d]) return 0;
  return 1;
}

/* 0, or DG_E_LAUNCH after printing the runtime's complaint about the last launch. */
static inline int dg_launched(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return DG_OK;
  fprintf(stderr, "%s: launch failed: %s\n", what, cudaGetErrorString(e));
  return DG_E_LAUNCH;
}

/* Grid size for a grid-stride loop over n items with the given block size. */
static inline unsigned dg_blocks(int64_t n, int threads) {
  int64_t b = (n + threads - 1) / threads;
  return (unsigned)(b < 1 ? 1 : (b > 65535 ? 65535 : b));
}

/* The larger of two floats; NaN when either is. */
__device__ inline float dg_nanmax(float a, float b) { return (isnan(a) || a > b) ? a : (isnan(b) ? b : b); }
#endif
