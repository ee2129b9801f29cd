/* acme_bias (tests/e2e/data/bias_rows.kcontract): y[r, c] = x[r, c] + b[c].
 *   kc_bias:                correct.
 *   kc_bias_first_row_only: the bias added in row 0 only (a loop bound taken from the wrong
 *                           dim of a batched version).
 *   kc_bias_scalar:         b[0] added everywhere (a per-tensor bias where a per-column one
 *                           was meant). */
#include <stdint.h>

#include "kcontract/abi.h"

enum { CORRECT, FIRST_ROW_ONLY, SCALAR };

static int bias(kc_tensor* t, int32_t nargs, int mode) {
  if (t == 0 || nargs != 3) return 1;
  const int64_t R = t[0].shape[0], C = t[0].shape[1];
  const float *x = (const float*)t[0].data, *b = (const float*)t[1].data;
  float* y = (float*)t[2].data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) {
      float add = b[(mode == SCALAR ? 0 : c) * t[1].strides[0]];
      if (mode == FIRST_ROW_ONLY && r > 0) add = 0.0f;
      y[r * t[2].strides[0] + c * t[2].strides[1]] = x[r * t[0].strides[0] + c * t[0].strides[1]] + add;
    }
  return 0;
}

int kc_bias(kc_tensor* t, int32_t n, void* stream) { (void)stream; return bias(t, n, CORRECT); }
int kc_bias_first_row_only(kc_tensor* t, int32_t n, void* stream) { (void)stream; return bias(t, n, FIRST_ROW_ONLY); }
int kc_bias_scalar(kc_tensor* t, int32_t n, void* stream) { (void)stream; return bias(t, n, SCALAR); }
