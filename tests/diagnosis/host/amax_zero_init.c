/* Diagnosis corpus, BUGGY (zero-initialised): the 8-lane row maximum with its lanes
 * started at 0 (a max-pool / absmax habit, "activations are non-negative"): a row whose
 * elements are all negative gets 0. Twin: amax_vec.c. */
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
    for (int k = 0; k < W; ++k) m[k] = 0.0f; /* BUG: started at 0 */
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) m[k] = nanmax(m[k], kc_ld(x, xb + (h + k) * xs));
    for (int64_t h = body; h < H; ++h) m[h - body] = nanmax(m[h - body], kc_ld(x, xb + h * xs));
    for (int w = W / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) m[k] = nanmax(m[k], m[k + w]);
    kc_st(y, r * y->strides[0], m[0]);
  }
  return KC_OK;
}
