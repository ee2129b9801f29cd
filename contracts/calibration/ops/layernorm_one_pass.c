/* Violating kc_layernorm (std.op.layernorm@1): the variance in one pass as E[x^2] - mu^2,
 * in f32. Fine on randn (mean 0); when the mean is large against the spread, the two terms
 * cancel and the variance is noise, or negative (NaN after the square root): signature
 * one-pass-variance. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(&args[1], 0) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[1]);
  const int64_t H = x->shape[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float s = 0.0f, s2 = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
      float v = kc_ld(x, xb + h * x->strides[1]);
      s += v;
      s2 += v * v;
    }
    const float mu = s / (float)H;
    const float var = s2 / (float)H - mu * mu;
    const float inv = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], (kc_ld(x, xb + h * x->strides[1]) - mu) * inv);
  }
  return KC_OK;
}
