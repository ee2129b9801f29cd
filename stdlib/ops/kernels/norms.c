/* Layer and RMS normalisation of the standard library on the host
 * (stdlib/ops/{layernorm,rmsnorm}.kcontract): conforming reference kernels.
 *
 *   kc_layernorm(x: T[R, H], eps: f32 -> y: T[R, H]), kc_rmsnorm(x, eps -> y)   T in f32, bf16
 *
 * Statistics in f32, per row. layernorm: Welford's update in 8 lanes (element h to lane
 * h % 8), the lanes merged pairwise with Chan's formula, so a large mean never cancels;
 * then y = (x - mean) * rsqrt(var + eps). rmsnorm: the sum of squares in 8 lanes, then
 * y = x * (1 / sqrtf(ms + eps)). */
#include "kc_host.h"

#define KC_LANES 8

static int check_args(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  if (!kc_view_ok(&args[0], 2) || !kc_view_ok(&args[1], 0) || !kc_view_ok(&args[2], 2)) return KC_E_TENSOR;
  if (args[0].dtype != args[2].dtype || args[1].dtype != KC_F32) return KC_E_TENSOR;
  if (!kc_same_shape(&args[0], &args[2])) return KC_E_SHAPE;
  return KC_OK;
}

int kc_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[2];
  const float eps = kc_scalar(&args[1]);
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float n[KC_LANES] = {0}, mean[KC_LANES] = {0}, m2[KC_LANES] = {0};
    for (int64_t h = 0; h < H; ++h) {
      const int k = (int)(h % KC_LANES);
      const float v = kc_ld(x, xb + h * xs);
      n[k] += 1.0f;
      const float d = v - mean[k];
      mean[k] += d / n[k];
      m2[k] += d * (v - mean[k]);
    }
    for (int w = KC_LANES / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) {
        const float nb = n[k + w];
        if (nb == 0.0f) continue;
        const float na = n[k], nn = na + nb, d = mean[k + w] - mean[k];
        mean[k] += d * (nb / nn);
        m2[k] += m2[k + w] + d * d * (na * nb / nn);
        n[k] = nn;
      }
    const float var = m2[0] / (float)H;
    const float inv = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * ys, (kc_ld(x, xb + h * xs) - mean[0]) * inv);
  }
  return KC_OK;
}

int kc_rmsnorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[2];
  const float eps = kc_scalar(&args[1]);
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  const int64_t body = H - H % KC_LANES;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float lane[KC_LANES] = {0};
    for (int64_t h = 0; h < body; h += KC_LANES)
      for (int k = 0; k < KC_LANES; ++k) {
        const float v = kc_ld(x, xb + (h + k) * xs);
        lane[k] += v * v;
      }
    for (int64_t h = body; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs);
      lane[h - body] += v * v;
    }
    for (int w = KC_LANES / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) lane[k] += lane[k + w];
    const float inv = 1.0f / sqrtf(lane[0] / (float)H + eps);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * ys, kc_ld(x, xb + h * xs) * inv);
  }
  return KC_OK;
}
