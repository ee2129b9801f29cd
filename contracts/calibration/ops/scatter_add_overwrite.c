/* Violating kc_scatter_add (std.op.scatter_add@1): the scatter written as an indexed
 * assignment, out = base; out[r, idx[r, k]] = base[r, idx[r, k]] + src[r, k] -- what
 * `out[r, idx] = base[r, idx] + src` does in NumPy or PyTorch, and what a CUDA kernel's
 * non-atomic read-modify-write leaves when the threads of one row race: where an index
 * repeats within a row, the last write wins and the other sources are lost. Right whenever
 * the indices of a row are distinct (a permutation, the test a scatter usually gets), so a
 * plain allclose at one row of distinct indices passes; wrong on every cell that two or more
 * indices name: signature lost-update. Bounds checked, strides honoured. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static int64_t ld_index(const kc_tensor* idx, int64_t r, int64_t k) {
  const int64_t off = r * idx->strides[0] + k * idx->strides[1];
  return idx->dtype == KC_I32 ? ((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
}

int kc_scatter_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *base = &args[0], *idx = &args[1], *src = &args[2], *out = &args[3];
  if (!kc_view_ok(base, 2) || !kc_view_ok(src, 2) || !kc_view_ok(out, 2)) return KC_E_TENSOR;
  if ((idx->dtype != KC_I32 && idx->dtype != KC_I64) || idx->rank != 2) return KC_E_TENSOR;
  const int64_t R = base->shape[0], C = base->shape[1], K = idx->shape[1];
  if (idx->shape[0] != R || src->shape[0] != R || src->shape[1] != K || !kc_same_shape(out, base)) return KC_E_SHAPE;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t c = ld_index(idx, r, k);
      if (c < 0 || c >= C) return KC_E_INDEX;
    }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      kc_st(out, r * out->strides[0] + c * out->strides[1], kc_ld(base, r * base->strides[0] + c * base->strides[1]));
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t c = ld_index(idx, r, k);
      kc_st(out, r * out->strides[0] + c * out->strides[1],
            kc_ld(base, r * base->strides[0] + c * base->strides[1]) + kc_ld(src, r * src->strides[0] + k * src->strides[1]));
    }
  return KC_OK;
}
