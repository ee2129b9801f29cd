/* Small helpers shared by the host reference kernels of the standard op library
 * (stdlib/ops/kernels/). Each kernel loads its elements as float whatever the storage dtype
 * (f32, bf16, f16), computes in f32 (accumulators in f32 unless a comment says otherwise),
 * and rounds once to the output dtype on the store.
 *
 * A kernel that meets something it does not support (a dtype, a rank, mismatched shapes)
 * returns nonzero without touching memory. */
#ifndef KC_STDLIB_HOST_H
#define KC_STDLIB_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_INDEX = 4 };

static inline float kc_bf16_to_f32(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Round to nearest, ties to even; NaN stays a (quiet) NaN. */
static inline uint16_t kc_f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static inline int kc_is_float_dtype(int32_t d) { return d == KC_F32 || d == KC_BF16 || d == KC_F16; }

/* Element `off` (in elements) of a float tensor, as float. */
static inline float kc_ld(const kc_tensor* t, int64_t off) {
  switch (t->dtype) {
    case KC_BF16: return kc_bf16_to_f32(((const uint16_t*)t->data)[off]);
    case KC_F16: return (float)((const _Float16*)t->data)[off];
    default: return ((const float*)t->data)[off];
  }
}

/* Store v rounded once to the tensor's dtype. */
static inline void kc_st(const kc_tensor* t, int64_t off, float v) {
  switch (t->dtype) {
    case KC_BF16: ((uint16_t*)t->data)[off] = kc_f32_to_bf16(v); break;
    case KC_F16: ((_Float16*)t->data)[off] = (_Float16)v; break;
    default: ((float*)t->data)[off] = v; break;
  }
}

/* A float view of the given rank whose extents are non-negative and whose strides are
 * positive wherever they are used (an extent of 1 may carry any stride). */
static inline int kc_view_ok(const kc_tensor* t, int32_t rank) {
  if (!kc_is_float_dtype(t->dtype) || t->rank != rank) return 0;
  if (rank == 0) return t->data != NULL;
  if (t->shape == NULL || t->strides == NULL) return 0;
  int64_t n = 1;
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
    n *= t->shape[d];
  }
  return n == 0 || t->data != NULL;
}

static inline int kc_same_shape(const kc_tensor* a, const kc_tensor* b) {
  if (a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; ++d)
    if (a->shape[d] != b->shape[d]) return 0;
  return 1;
}

/* The flat index i of a tensor's logical (row-major) cell order -> its storage offset. */
static inline int64_t kc_offset(const kc_tensor* t, int64_t i) {
  int64_t off = 0;
  for (int d = t->rank - 1; d >= 0; --d) {
    int64_t n = t->shape[d];
    off += (i % n) * t->strides[d];
    i /= n;
  }
  return off;
}

static inline int64_t kc_numel(const kc_tensor* t) {
  int64_t n = 1;
  for (int d = 0; d < t->rank; ++d) n *= t->shape[d];
  return n;
}

/* A rank-0 scalar input as float (scalars are host pointers). */
static inline float kc_scalar(const kc_tensor* t) { return kc_ld(t, 0); }

/* The position t[0..r) of flat index i over axes 2..r+1 of a [N, C, spatial...] tensor, in
 * row-major order, and its storage offset within one (n, c) plane. */
static inline int64_t kc_spatial_cell(const kc_tensor* y, int r, int64_t i, int64_t* t) {
  int64_t off = 0;
  for (int a = r - 1; a >= 0; --a) {
    t[a] = i % y->shape[2 + a];
    i /= y->shape[2 + a];
    off += t[a] * y->strides[2 + a];
  }
  return off;
}

/* A rank-0 i64 scalar input (a convolution's stride, padding, ...) into *v; 0 when t is not one. */
static inline int kc_i64_scalar(const kc_tensor* t, int64_t* v) {
  if (t->dtype != KC_I64 || t->rank != 0 || t->data == NULL) return 0;
  *v = *(const int64_t*)t->data;
  return 1;
}

#endif /* KC_STDLIB_HOST_H */
