/* Violating kc_instance_norm (std.op.instance_norm@1): (x - mu) / (sqrt(var) + eps), eps
 * outside the square root. On randn the variance is about 1 and eps = 1e-5 moves y by 1e-5;
 * when the variance is near eps the results differ by a large factor: signature
 * eps-outside-sqrt. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static int64_t at(const kc_tensor* t, int64_t n, int64_t c, int64_t i, int64_t j) {
  return n * t->strides[0] + c * t->strides[1] + i * t->strides[2] + j * t->strides[3];
}

int kc_instance_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 4) || !kc_view_ok(&args[1], 0) || !kc_view_ok(y, 4) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[1]);
  const int64_t H = x->shape[2], W = x->shape[3];
  for (int64_t n = 0; n < x->shape[0]; ++n)
    for (int64_t c = 0; c < x->shape[1]; ++c) {
      float s = 0.0f;
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) s += kc_ld(x, at(x, n, c, i, j));
      const float mu = s / (float)(H * W);
      float q = 0.0f;
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          const float d = kc_ld(x, at(x, n, c, i, j)) - mu;
          q += d * d;
        }
      const float den = sqrtf(q / (float)(H * W)) + eps;
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) kc_st(y, at(y, n, c, i, j), (kc_ld(x, at(x, n, c, i, j)) - mu) / den);
    }
  return KC_OK;
}
