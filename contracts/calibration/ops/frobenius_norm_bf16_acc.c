/* Violating kc_frobenius_norm (std.op.frobenius_norm@1): one running sum of squares over the
 * whole tensor, kept in bf16 (a kernel that accumulates in its input dtype). On a small
 * tensor of randn the sum's 8 bits hold and y stays inside allclose's; on a long one the
 * running sum stalls once each square is below half its spacing:
 * std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_frobenius_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 1) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t N = x->shape[0];
  float total = 0.0f;
  for (int64_t i = 0; i < N; ++i) {
    const float v = kc_ld(x, i * x->strides[0]);
    total = bf16(total + v * v);
  }
  const float inv = 1.0f / sqrtf(total);
  for (int64_t i = 0; i < N; ++i) kc_st(y, i * y->strides[0], kc_ld(x, i * x->strides[0]) * inv);
  return KC_OK;
}
