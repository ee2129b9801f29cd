/* Diagnosis corpus, BUGGY (approximate-math): GELU's tanh form with tanh replaced by the
 * [3/2] Pade approximant u (27 + u^2) / (27 + 9 u^2), clamped to [-1, 1] ("fast tanh"):
 * off by up to ~2e-2 near |u| = 2. Twin: gelu_tanh_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

static inline float f(float v) {
  const float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
  float t = u * (27.0f + u * u) / (27.0f + 9.0f * u * u); /* BUG: Pade tanh */
  t = t > 1.0f ? 1.0f : (t < -1.0f ? -1.0f : t);
  return 0.5f * v * (1.0f + t);
}

int kc_gelu_tanh(kc_tensor* args, int32_t nargs, void* stream) {
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
