/* Violating kc_layernorm_affine (std.op.layernorm_affine@1): two-pass statistics whose running
 * sums (of x, then of (x - mu)^2) are kept in bf16 (a kernel that accumulates in its input
 * dtype). On a short row of randn the sums' 8 bits hold and y stays inside allclose's; on
 * long rows, or a large mean, the running sums stall: signature low-precision-statistics. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_layernorm_affine(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 5) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *b = &args[2], *y = &args[4];
  if (!kc_view_ok(x, 2) || !kc_view_ok(w, 1) || !kc_view_ok(b, 1) || !kc_view_ok(&args[3], 0) || !kc_view_ok(y, 2))
    return KC_E_TENSOR;
  const int64_t H = x->shape[1];
  if (!kc_same_shape(x, y) || w->shape[0] != H || b->shape[0] != H) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[3]);
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float s = 0.0f, q = 0.0f;
    for (int64_t h = 0; h < H; ++h) s = bf16(s + kc_ld(x, xb + h * x->strides[1]));
    const float mu = s / (float)H;
    for (int64_t h = 0; h < H; ++h) {
      const float d = kc_ld(x, xb + h * x->strides[1]) - mu;
      q = bf16(q + d * d);
    }
    const float inv = 1.0f / sqrtf(q / (float)H + eps);
    for (int64_t h = 0; h < H; ++h)
      kc_st(y, yb + h * y->strides[1],
            (kc_ld(x, xb + h * x->strides[1]) - mu) * inv * kc_ld(w, h * w->strides[0]) + kc_ld(b, h * b->strides[0]));
  }
  return KC_OK;
}
