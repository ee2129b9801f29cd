/* Violating kc_rmsnorm_channels (std.op.rmsnorm_channels@1): the running sum of squares over
 * the channels kept in bf16 (a kernel that accumulates in its input dtype). On randn over a
 * few dozen channels the sum's 8 bits hold and y stays inside allclose's; over many channels
 * the running sum stalls once each square is below half its spacing: std.prec.accumulator@1,
 * signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

static int64_t at(const kc_tensor* t, int64_t n, int64_t c, int64_t i, int64_t j) {
  return n * t->strides[0] + c * t->strides[1] + i * t->strides[2] + j * t->strides[3];
}

int kc_rmsnorm_channels(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 4) || !kc_view_ok(&args[1], 0) || !kc_view_ok(y, 4) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[1]);
  const int64_t C = x->shape[1];
  for (int64_t n = 0; n < x->shape[0]; ++n)
    for (int64_t i = 0; i < x->shape[2]; ++i)
      for (int64_t j = 0; j < x->shape[3]; ++j) {
        float s = 0.0f;
        for (int64_t c = 0; c < C; ++c) {
          const float v = kc_ld(x, at(x, n, c, i, j));
          s = bf16(s + v * v);
        }
        const float inv = 1.0f / sqrtf(s / (float)C + eps);
        for (int64_t c = 0; c < C; ++c) kc_st(y, at(y, n, c, i, j), kc_ld(x, at(x, n, c, i, j)) * inv);
      }
  return KC_OK;
}
