/* Diagnosis corpus, BUGGY (approximate-math): GELU with erf replaced by a short
 * rational-polynomial approximation (Abramowitz and Stegun 7.1.25, three terms, |error| up
 * to 2.5e-5), a common "erff is slow" rewrite. Twin: gelu_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

static inline float f(float v) {
  const float z = v * 0.70710678118654752f;
  const float a = fabsf(z);
  const float t = 1.0f / (1.0f + 0.47047f * a); /* BUG: erf to 2.5e-5 */
  const float e = 1.0f - t * (0.3480242f + t * (-0.0958798f + t * 0.7478556f)) * expf(-a * a);
  return 0.5f * v * (1.0f + (z < 0.0f ? -e : e));
}

int kc_gelu(kc_tensor* args, int32_t nargs, void* stream) {
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
