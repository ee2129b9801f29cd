/* Shared by the calibration kernels of contracts/calibration/: reading the kc_tensor views
 * of the kcontract ABI (include/kcontract/abi.h) without repeating the checks in each. */
#ifndef KC_CAL_VIEWS_H
#define KC_CAL_VIEWS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kcontract/abi.h"

/* A view of `rank` dims and dtype `dtype` with non-negative extents and a buffer when it
 * holds anything. */
static inline int cal_view_ok(const kc_tensor* t, int32_t dtype, int32_t rank) {
  if (t->dtype != dtype || t->rank != rank || (rank > 0 && (t->shape == NULL || t->strides == NULL))) return 0;
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] < 0) return 0;
    n *= t->shape[d];
  }
  return n == 0 || t->data != NULL;
}

/* Element (r, c) of a rank-2 f32 view. */
static inline float* cal_at2(const kc_tensor* t, int64_t r, int64_t c) {
  return (float*)t->data + r * t->strides[0] + c * t->strides[1];
}

/* f32 -> bf16, round to nearest even (NaN kept quiet). */
static inline uint16_t cal_bf16_rne(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
#endif
