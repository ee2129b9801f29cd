/* Violating kc_topk (std.op.topk@1): the selection loop as usually first written, each step
 * taking the first remaining element and replacing it with any later one that compares
 * `v > best`. A comparison with NaN is false, so a NaN is taken only when the scan starts on
 * it, and then nothing replaces it: the row's NaNs land wherever the scan happens to meet them,
 * or are never taken, where torch.topk puts them first (NaN counts as the largest). Right on
 * every row without NaN, ties included (the first of equal values wins), so a plain allclose
 * on normal values passes: signature nan-not-largest. */
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_topk(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *kk = &args[1], *values = &args[2], *indices = &args[3];
  int64_t K;
  if (!kc_view_ok(x, 2) || !kc_view_ok(values, 2) || values->dtype != x->dtype || indices->dtype != KC_I64 ||
      indices->rank != 2 || !kc_i64_scalar(kk, &K))
    return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (K < 0 || K > C || values->shape[0] != R || values->shape[1] != K || !kc_same_shape(values, indices)) return KC_E_SHAPE;
  if (R == 0 || K == 0) return KC_OK;
  unsigned char* taken = malloc((size_t)C);
  if (taken == NULL) return KC_E_SHAPE;
  for (int64_t r = 0; r < R; ++r) {
    memset(taken, 0, (size_t)C);
    for (int64_t j = 0; j < K; ++j) {
      int64_t best = -1;
      float bv = 0.0f;
      for (int64_t c = 0; c < C; ++c) {
        if (taken[c]) continue;
        const float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
        if (best < 0 || v > bv) best = c, bv = v;
      }
      taken[best] = 1;
      kc_st(values, r * values->strides[0] + j * values->strides[1], bv);
      ((int64_t*)indices->data)[r * indices->strides[0] + j * indices->strides[1]] = best;
    }
  }
  free(taken);
  return KC_OK;
}
