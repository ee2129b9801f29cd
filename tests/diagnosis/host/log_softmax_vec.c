/* Diagnosis corpus, CONFORMING twin of log_softmax_no_max.c and
 * log_softmax_ignores_strides.c: log-softmax with 8-wide loops and masked tails,
 * y = (x - m) - log(sum exp(x - m)). */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_log_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    const int64_t xs = x->strides[1], ys = y->strides[1];
    float m = -INFINITY;
    for (int64_t h = 0; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs);
      if (v > m || isnan(v)) m = v;
      if (isnan(v)) break;
    }
    float lanes[W] = {0};
    const int64_t body = H - H % W;
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) lanes[k] += expf(kc_ld(x, xb + (h + k) * xs) - m);
    for (int64_t h = body; h < H; ++h) lanes[h - body] += expf(kc_ld(x, xb + h * xs) - m);
    float s = 0.0f;
    for (int k = 0; k < W; ++k) s += lanes[k];
    const float lse = logf(s);
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * ys, (kc_ld(x, xb + h * xs) - m) - lse);
  }
  return KC_OK;
}
