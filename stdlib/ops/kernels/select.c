/* Selections of the standard library on the host (stdlib/ops/{gather,scatter_add,topk}.kcontract):
 * the conforming reference kernels.
 *
 *   kc_gather(x: T[R, C], idx: I[R, K] -> out: T[R, K])                       T in f32, bf16, f16; I in i32, i64
 *   kc_scatter_add(base: T[R, C], idx: I[R, K], src: T[R, K] -> out: T[R, C])
 *   kc_topk(x: T[R, C], k: i64 -> values: T[R, K], indices: i64[R, K])
 *
 * Every tensor is read and written through its strides, offsets in 64-bit arithmetic (a
 * tensor past 2^31 elements is addressed correctly). An index is read at its own width (i32
 * or i64) and checked before anything is written: one outside 0..C - 1 makes the kernel
 * return KC_E_INDEX, as torch.gather and torch.scatter_add raise.
 *
 * gather copies the selected element's bits. scatter_add copies base into out, then adds
 * each src element into the cell its index names, in k order, each addition rounded to T
 * (what torch's in-place `self[r][idx[r][k]] += src[r][k]` does on the CPU; CUDA's atomics
 * add in T as well, in whatever order the threads arrive). topk selects the K largest of
 * each row by a partial selection sort (NaN counts as larger than every number, as in
 * torch.topk; equal values keep their column order) and copies their bits. */
#include <stdlib.h>

#include "kc_host.h"

/* An integer (i32 or i64) view of rank 2 with non-negative extents and positive strides
 * where used; `want` is the one dtype allowed, or 0 for either index dtype. */
static int int_view_ok(const kc_tensor* t, int32_t want) {
  if (want ? t->dtype != want : (t->dtype != KC_I32 && t->dtype != KC_I64)) return 0;
  if (t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  return t->shape[0] * t->shape[1] == 0 || t->data != NULL;
}

/* idx[r, k] at its own width. */
static int64_t ld_index(const kc_tensor* idx, int64_t r, int64_t k) {
  const int64_t off = r * idx->strides[0] + k * idx->strides[1];
  return idx->dtype == KC_I32 ? ((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
}

/* Every index of idx in 0..C - 1. */
static int indices_in_range(const kc_tensor* idx, int64_t C) {
  for (int64_t r = 0; r < idx->shape[0]; ++r)
    for (int64_t k = 0; k < idx->shape[1]; ++k) {
      const int64_t c = ld_index(idx, r, k);
      if (c < 0 || c >= C) return 0;
    }
  return 1;
}

static size_t elem_bytes(const kc_tensor* t) { return t->dtype == KC_F32 ? 4 : 2; }

int kc_gather(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *idx = &args[1], *out = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(out, 2) || x->dtype != out->dtype || !int_view_ok(idx, 0)) return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1], K = idx->shape[1];
  if (idx->shape[0] != R || out->shape[0] != R || out->shape[1] != K) return KC_E_SHAPE;
  if (!indices_in_range(idx, C)) return KC_E_INDEX;
  const size_t eb = elem_bytes(x);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t c = ld_index(idx, r, k);
      memcpy((char*)out->data + (size_t)(r * out->strides[0] + k * out->strides[1]) * eb,
             (const char*)x->data + (size_t)(r * x->strides[0] + c * x->strides[1]) * eb, eb);
    }
  return KC_OK;
}

int kc_scatter_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *base = &args[0], *idx = &args[1], *src = &args[2], *out = &args[3];
  if (!kc_view_ok(base, 2) || !kc_view_ok(src, 2) || !kc_view_ok(out, 2) || !int_view_ok(idx, 0)) return KC_E_TENSOR;
  if (base->dtype != out->dtype || src->dtype != out->dtype) return KC_E_TENSOR;
  const int64_t R = base->shape[0], C = base->shape[1], K = idx->shape[1];
  if (idx->shape[0] != R || src->shape[0] != R || src->shape[1] != K || !kc_same_shape(out, base)) return KC_E_SHAPE;
  if (!indices_in_range(idx, C)) return KC_E_INDEX;
  const size_t eb = elem_bytes(base);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      memcpy((char*)out->data + (size_t)(r * out->strides[0] + c * out->strides[1]) * eb,
             (const char*)base->data + (size_t)(r * base->strides[0] + c * base->strides[1]) * eb, eb);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t o = r * out->strides[0] + ld_index(idx, r, k) * out->strides[1];
      kc_st(out, o, kc_ld(out, o) + kc_ld(src, r * src->strides[0] + k * src->strides[1]));
    }
  return KC_OK;
}

/* a ranks above b: larger, or a NaN above a number (torch.topk's order). */
static int ranks_above(float a, float b) { return (isnan(a) && !isnan(b)) || a > b; }

int kc_topk(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *kk = &args[1], *values = &args[2], *indices = &args[3];
  int64_t K;
  if (!kc_view_ok(x, 2) || !kc_view_ok(values, 2) || values->dtype != x->dtype || !int_view_ok(indices, KC_I64) ||
      !kc_i64_scalar(kk, &K))
    return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (K < 0 || K > C || values->shape[0] != R || values->shape[1] != K || !kc_same_shape(values, indices)) return KC_E_SHAPE;
  if (R == 0 || K == 0) return KC_OK;
  unsigned char* taken = malloc((size_t)C);
  if (taken == NULL) return KC_E_SHAPE;
  const size_t eb = elem_bytes(x);
  for (int64_t r = 0; r < R; ++r) {
    memset(taken, 0, (size_t)C);
    for (int64_t j = 0; j < K; ++j) {
      /* The first column, in column order, of the largest element not yet taken. */
      int64_t best = -1;
      float bv = 0.0f;
      for (int64_t c = 0; c < C; ++c) {
        if (taken[c]) continue;
        const float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
        if (best < 0 || ranks_above(v, bv)) best = c, bv = v;
      }
      taken[best] = 1;
      memcpy((char*)values->data + (size_t)(r * values->strides[0] + j * values->strides[1]) * eb,
             (const char*)x->data + (size_t)(r * x->strides[0] + best * x->strides[1]) * eb, eb);
      ((int64_t*)indices->data)[r * indices->strides[0] + j * indices->strides[1]] = best;
    }
  }
  free(taken);
  return KC_OK;
}
