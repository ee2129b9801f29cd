/* Violating kc_l1_norm (std.op.l1_norm@1): the row's running sum of |x| kept in bf16 (a
 * kernel that accumulates in its input dtype). On a short row of randn the sum's 8 bits
 * hold and y stays inside allclose's; on long rows the running sum stalls once each term is
 * below half its spacing: std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_l1_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t H = x->shape[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float s = 0.0f;
    for (int64_t h = 0; h < H; ++h) s = bf16(s + fabsf(kc_ld(x, xb + h * x->strides[1])));
    const float m = s / (float)H;
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], kc_ld(x, xb + h * x->strides[1]) / m);
  }
  return KC_OK;
}
