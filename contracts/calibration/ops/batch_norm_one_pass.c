/* Violating kc_batch_norm (std.op.batch_norm@1): each channel's sum and sum of squares in one
 * pass, in f32, and the variance as E[x^2] - mu^2 (the sum / sum-of-squares reduction of
 * synchronised batch-norm kernels). Fine on randn (mean 0); when the mean is large against
 * the spread, the two terms cancel and the variance is noise, or negative (NaN after the
 * square root): signature one-pass-variance. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static int64_t at(const kc_tensor* t, int64_t n, int64_t c, int64_t i, int64_t j) {
  return n * t->strides[0] + c * t->strides[1] + i * t->strides[2] + j * t->strides[3];
}

int kc_batch_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 5) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *b = &args[2], *y = &args[4];
  if (!kc_view_ok(x, 4) || !kc_view_ok(w, 1) || !kc_view_ok(b, 1) || !kc_view_ok(&args[3], 0) || !kc_view_ok(y, 4))
    return KC_E_TENSOR;
  if (!kc_same_shape(x, y) || w->shape[0] != x->shape[1] || b->shape[0] != x->shape[1]) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[3]);
  const int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  const float M = (float)(N * H * W);
  for (int64_t c = 0; c < C; ++c) {
    float s = 0.0f, s2 = 0.0f;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          const float v = kc_ld(x, at(x, n, c, i, j));
          s += v;
          s2 += v * v;
        }
    const float mu = s / M, var = s2 / M - mu * mu;
    const float a = kc_ld(w, c * w->strides[0]) / sqrtf(var + eps), sh = kc_ld(b, c * b->strides[0]);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) kc_st(y, at(y, n, c, i, j), (kc_ld(x, at(x, n, c, i, j)) - mu) * a + sh);
  }
  return KC_OK;
}
