/* acme_trmv (tests/e2e/data/trmv_lower.kcontract): y = a x for a lower-triangular a, reading
 * only the lower triangle.
 *   kc_trmv:             correct.
 *   kc_trmv_no_diagonal: the inner loop stops before the diagonal (j < i, not j <= i). */
#include <stdint.h>

#include "kcontract/abi.h"

static int trmv(kc_tensor* t, int32_t nargs, int with_diagonal) {
  if (t == 0 || nargs != 3) return 1;
  const int64_t N = t[0].shape[0];
  const float *a = (const float*)t[0].data, *x = (const float*)t[1].data;
  float* y = (float*)t[2].data;
  for (int64_t i = 0; i < N; ++i) {
    float acc = 0.0f;
    for (int64_t j = 0; j < i + with_diagonal; ++j)
      acc += a[i * t[0].strides[0] + j * t[0].strides[1]] * x[j * t[1].strides[0]];
    y[i * t[2].strides[0]] = acc;
  }
  return 0;
}

int kc_trmv(kc_tensor* t, int32_t n, void* stream) { (void)stream; return trmv(t, n, 1); }
int kc_trmv_no_diagonal(kc_tensor* t, int32_t n, void* stream) { (void)stream; return trmv(t, n, 0); }
