/* Diagnosis corpus, BUGGY (low-precision-accumulator): rmsnorm with its 8 sum-of-squares
 * lanes in _Float16, as in a half kernel that keeps everything in the storage type: the
 * squares of |x| > 256 overflow the half range, and the sum loses bits as H grows.
 * Twin: rmsnorm_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_rmsnorm(kc_tensor* args, int32_t nargs, void* stream) {
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
    _Float16 sq[W] = {0}; /* BUG: half accumulators */
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) {
        const float v = kc_ld(x, xb + (h + k) * xs);
        sq[k] += v * v;
      }
    for (int64_t h = body; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs);
      sq[h - body] += v * v;
    }
    float ss = 0.0f;
    for (int k = 0; k < W; ++k) ss += sq[k];
    const float rinv = 1.0f / sqrtf(ss / (float)H + eps);
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) kc_st(y, yb + (h + k) * ys, kc_ld(x, xb + (h + k) * xs) * rinv);
    for (int64_t h = body; h < H; ++h) kc_st(y, yb + h * ys, kc_ld(x, xb + h * xs) * rinv);
  }
  return KC_OK;
}
