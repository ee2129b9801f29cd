/* Violating kc_rmsnorm_affine (std.op.rmsnorm_affine@1): the sum of squares over whole vectors
 * of 8 only, the row's last H % 8 elements left out of the statistics (a vector loop with no
 * remainder loop), still divided by H; every output is written. Exact when H is a multiple
 * of 8, as at allclose's 64; otherwise every cell of the row is off: the built-in k-tail (the
 * diagnosis's re-run at a multiple of 8 passes, and cells before the tail are wrong too). */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_rmsnorm_affine(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *y = &args[3];
  if (!kc_view_ok(x, 2) || !kc_view_ok(w, 1) || !kc_view_ok(&args[2], 0) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  const int64_t H = x->shape[1];
  if (!kc_same_shape(x, y) || w->shape[0] != H) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[2]);
  const int64_t body = H - H % 8;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float lane[8] = {0};
    for (int64_t h = 0; h < body; h += 8)
      for (int k = 0; k < 8; ++k) {
        const float v = kc_ld(x, xb + (h + k) * x->strides[1]);
        lane[k] += v * v;
      }
    const float s = ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
    const float inv = 1.0f / sqrtf(s / (float)H + eps);
    for (int64_t h = 0; h < H; ++h)
      kc_st(y, yb + h * y->strides[1], kc_ld(x, xb + h * x->strides[1]) * inv * kc_ld(w, h * w->strides[0]));
  }
  return KC_OK;
}
