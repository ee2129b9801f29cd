/* Diagnosis corpus, BUGGY (k-tail): the two-pass 8-wide layernorm whose mean pass has no
 * tail loop (the variance pass and the store have theirs) but still divides by H: for
 * H % 8 != 0 the mean misses the last H % 8 elements, every cell is shifted, and the
 * variance is inflated. Twin: layernorm_vec.c. */
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
    /* BUG: no tail loop for the mean */
    float sum = 0.0f;
    for (int k = 0; k < W; ++k) sum += acc[k];
    const float mean = sum / (float)H;
    float sq[W] = {0};
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) {
        const float d = kc_ld(x, xb + (h + k) * xs) - mean;
        sq[k] += d * d;
      }
    for (int64_t h = body; h < H; ++h) {
      const float d = kc_ld(x, xb + h * xs) - mean;
      sq[h - body] += d * d;
    }
    float m2 = 0.0f;
    for (int k = 0; k < W; ++k) m2 += sq[k];
    const float var = m2 / (float)H;
    const float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * ys, (kc_ld(x, xb + h * xs) - mean) * rstd);
  }
  return KC_OK;
}
