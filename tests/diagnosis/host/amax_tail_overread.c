/* Diagnosis corpus, BUGGY (tail-over-read): the 8-lane row maximum that reads whole
 * vectors, the last one past the end of the row when H % 8 != 0: a larger value in the next
 * row, in padding or past the view becomes the row's maximum. Twin: amax_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

static inline float nanmax(float a, float b) { return (isnan(a) || a > b) ? a : (isnan(b) ? b : b); }

int kc_amax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1];
  const int64_t body = H - H % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0];
    float m[W];
    for (int k = 0; k < W; ++k) m[k] = -INFINITY;
    for (int64_t h = 0; h < H; h += W) /* BUG: the last vector is read whole */
      for (int k = 0; k < W; ++k) m[k] = nanmax(m[k], kc_ld(x, xb + (h + k) * xs));
    for (int w = W / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) m[k] = nanmax(m[k], m[k + w]);
    kc_st(y, r * y->strides[0], m[0]);
  }
  return KC_OK;
}
