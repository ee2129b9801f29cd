/* Violating kc_hinge_loss (std.op.hinge_loss@1): one running sum of the hinge terms over the
 * whole tensor, kept in bf16 (a kernel that accumulates in its input dtype). On a small
 * tensor of rand the sum's 8 bits hold and the loss stays inside allclose's; on a long one
 * the running sum stalls once each term is below half its spacing:
 * std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_hinge_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 2) || !kc_view_ok(t, 1) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != t->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (t->shape[0] != p->shape[1]) return KC_E_SHAPE;
  const int64_t B = p->shape[0], D = p->shape[1];
  float total = 0.0f;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t d = 0; d < D; ++d) {
      const float v = 1.0f - kc_ld(p, b * p->strides[0] + d * p->strides[1]) * kc_ld(t, d * t->strides[0]);
      total = bf16(total + (v > 0.0f ? v : 0.0f));
    }
  kc_st(y, 0, total / (float)(B * D));
  return KC_OK;
}
