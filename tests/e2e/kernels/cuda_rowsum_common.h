/* Shared by the cuda_*.cu row-sum kernels (tests/e2e/data/rowsum_*.kcontract): the ABI
 * checks every one of them makes before touching memory. */
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "kcontract/abi.h"

/* x: f32[R, H] (any strides), y: f32[R]. */
static inline int rowsum_args_ok(const kc_tensor* args, int32_t nargs) {
  return nargs == 2 && args[0].dtype == KC_F32 && args[0].rank == 2 && args[1].dtype == KC_F32 && args[1].rank == 1 &&
         args[1].shape[0] == args[0].shape[0];
}

static inline int rowsum_launched(void) { return cudaGetLastError() == cudaSuccess ? 0 : 5; }
