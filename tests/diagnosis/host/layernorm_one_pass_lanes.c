/* Diagnosis corpus, BUGGY (one-pass-variance): the layernorm fused into one 8-wide pass
 * over x that accumulates sum(x) and sum(x^2) per lane, then var = E[x^2] - mean^2 (one
 * read of the row instead of two). For rows with a large mean the two terms cancel: the
 * variance is noise or negative (NaN from sqrt). Twin: layernorm_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(&args[1], 0) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (x->dtype != y->dtype || args[1].dtype != KC_F32) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[1]);
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  const int64_t body = H - H % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float acc[W] = {0};
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) acc[k] += kc_ld(x, xb + (h + k) * xs);
    for (int64_t h = body; h < H; ++h) acc[h - body] += kc_ld(x, xb + h * xs);
    float sum = 0.0f;
    for (int k = 0; k < W; ++k) sum += acc[k];
    const float mean = sum / (float)H;
    float sq[W] = {0}; /* BUG: sum of squares in the same pass, var = E[x^2] - mean^2 */
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) {
        const float v = kc_ld(x, xb + (h + k) * xs);
        sq[k] += v * v;
      }
    for (int64_t h = body; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs);
      sq[h - body] += v * v;
    }
    float s2 = 0.0f;
    for (int k = 0; k < W; ++k) s2 += sq[k];
    const float var = s2 / (float)H - mean * mean;
    const float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * ys, (kc_ld(x, xb + h * xs) - mean) * rstd);
  }
  return KC_OK;
}
