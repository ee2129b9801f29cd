/* Diagnosis corpus, BUGGY (input-modified): the blocked scan that saves a buffer by
 * scanning each block in place in x (x is "dead after this op") and then copying the block
 * out with the carry: y is right, but the caller's x now holds the block-local prefix sums.
 * Twin: cumsum_blocked.c. */
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
    for (int64_t h0 = 0; h0 < H; h0 += BS) {
      const int64_t n = H - h0 < BS ? H - h0 : BS;
      float run = 0.0f;
      for (int64_t k = 0; k < n; ++k) { /* BUG: the block is scanned in place in x */
        run += kc_ld(x, xb + (h0 + k) * xs);
        kc_st(x, xb + (h0 + k) * xs, run);
      }
      for (int64_t k = 0; k < n; ++k) kc_st(y, yb + (h0 + k) * ys, carry + kc_ld(x, xb + (h0 + k) * xs));
      carry += run;
    }
  }
  return KC_OK;
}
