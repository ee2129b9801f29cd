/* Diagnosis corpus, BUGGY (k-tail): the 8-lane row sum without its tail loop: for
 * H % 8 != 0 the last H % 8 elements of every row are not summed (H < 8: 0).
 * Twin: sum_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1];
  const int64_t body = H - H % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0];
    float acc[W] = {0};
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) acc[k] += kc_ld(x, xb + (h + k) * xs);
    /* BUG: no tail loop */
    for (int w = W / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) acc[k] += acc[k + w];
    kc_st(y, r * y->strides[0], acc[0]);
  }
  return KC_OK;
}
