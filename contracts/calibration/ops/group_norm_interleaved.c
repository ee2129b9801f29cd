/* Violating kc_group_norm (std.op.group_norm@1): channel o put in group o mod G, the
 * grouping of a channels-last kernel, instead of the G blocks of CG consecutive channels
 * torch's GroupNorm uses. The statistics are over the right number of cells, of the wrong
 * channels; on randn (KernelBench's torch.rand too) every group's mean and spread are alike,
 * so a large group is within allclose's: signature groups-interleaved. The statistics
 * themselves two-pass in f32. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static int64_t at(const kc_tensor* t, int64_t n, int64_t c, int64_t i, int64_t j) {
  return n * t->strides[0] + c * t->strides[1] + i * t->strides[2] + j * t->strides[3];
}

int kc_group_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 6) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *b = &args[2], *y = &args[5];
  int64_t G;
  if (!kc_i64_scalar(&args[3], &G) || G < 1) return KC_E_TENSOR;
  if (!kc_view_ok(x, 4) || !kc_view_ok(w, 1) || !kc_view_ok(b, 1) || !kc_view_ok(&args[4], 0) || !kc_view_ok(y, 4))
    return KC_E_TENSOR;
  const int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  if (!kc_same_shape(x, y) || w->shape[0] != C || b->shape[0] != C || C % G != 0) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[4]);
  const float M = (float)(C / G * H * W);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      float s = 0.0f, q = 0.0f;
      for (int64_t c = g; c < C; c += G)
        for (int64_t i = 0; i < H; ++i)
          for (int64_t j = 0; j < W; ++j) s += kc_ld(x, at(x, n, c, i, j));
      const float mu = s / M;
      for (int64_t c = g; c < C; c += G)
        for (int64_t i = 0; i < H; ++i)
          for (int64_t j = 0; j < W; ++j) {
            const float d = kc_ld(x, at(x, n, c, i, j)) - mu;
            q += d * d;
          }
      const float inv = 1.0f / sqrtf(q / M + eps);
      for (int64_t c = g; c < C; c += G) {
        const float a = inv * kc_ld(w, c * w->strides[0]), sh = kc_ld(b, c * b->strides[0]);
        for (int64_t i = 0; i < H; ++i)
          for (int64_t j = 0; j < W; ++j) kc_st(y, at(y, n, c, i, j), (kc_ld(x, at(x, n, c, i, j)) - mu) * a + sh);
      }
    }
  return KC_OK;
}
