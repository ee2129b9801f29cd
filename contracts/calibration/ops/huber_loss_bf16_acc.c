/* Violating kc_huber_loss (std.op.huber_loss@1): one running sum of the Huber terms over the
 * whole tensor, kept in bf16 (a kernel that accumulates in its input dtype). On a short
 * vector of rand the sum's 8 bits hold and the loss stays inside allclose's; on a long
 * one the running sum stalls once each term is below half its spacing:
 * std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_huber_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 1) || !kc_view_ok(t, 1) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != t->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(p, t)) return KC_E_SHAPE;
  const int64_t N = p->shape[0];
  float total = 0.0f;
  for (int64_t i = 0; i < N; ++i) {
    const float d = fabsf(kc_ld(p, i * p->strides[0]) - kc_ld(t, i * t->strides[0]));
    total = bf16(total + (d < 1.0f ? 0.5f * d * d : d - 0.5f));
  }
  kc_st(y, 0, total / (float)N);
  return KC_OK;
}
