/* Diagnosis corpus, BUGGY (tail-unwritten): the blocked scan with its block loop over whole
 * blocks of 16 ("H is padded to the block size upstream"): for H % 16 != 0 the last H % 16
 * cells of every row are never written. Twin: cumsum_blocked.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define BS 16

int kc_cumsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float carry = 0.0f;
    for (int64_t h0 = 0; h0 + BS <= H; h0 += BS) { /* BUG: whole blocks only */
      const int64_t n = BS;
      float loc[BS];
      float run = 0.0f;
      for (int64_t k = 0; k < n; ++k) loc[k] = run += kc_ld(x, xb + (h0 + k) * xs);
      for (int64_t k = 0; k < n; ++k) kc_st(y, yb + (h0 + k) * ys, carry + loc[k]);
      carry += run;
    }
  }
  return KC_OK;
}
