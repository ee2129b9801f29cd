/* Diagnosis corpus, BUGGY (approximate-math): SiLU with a hand-written fast exp: 2^(x
 * log2 e) split into an integer part put in the exponent bits and a cubic for 2^fraction
 * (relative error ~1e-4), the "expf is the bottleneck" rewrite. Twin: silu_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

/* BUG: a cubic for 2^f, relative error about 1e-4 */
static inline float fast_exp(float x) {
  if (x > 88.0f) return INFINITY;
  if (x < -87.0f) return 0.0f;
  const float t = x * 1.4426950408889634f;
  const float fl = floorf(t), fr = t - fl;
  const float p = 1.0f + fr * (0.6958f + fr * (0.2262f + fr * 0.0780f));
  return ldexpf(p, (int)fl);
}

#define W 8

static inline float f(float v) {
  return v / (1.0f + fast_exp(-v));
}

int kc_silu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  const int64_t body = C - C % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    for (int64_t c = 0; c < body; c += W) {
      float v[W];
      for (int k = 0; k < W; ++k) v[k] = kc_ld(x, xb + (c + k) * xs);
      for (int k = 0; k < W; ++k) kc_st(y, yb + (c + k) * ys, f(v[k]));
    }
    for (int64_t c = body; c < C; ++c) kc_st(y, yb + c * ys, f(kc_ld(x, xb + c * xs)));
  }
  return KC_OK;
}
