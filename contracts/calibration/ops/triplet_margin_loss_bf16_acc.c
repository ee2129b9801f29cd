/* Violating kc_triplet_margin_loss (std.op.triplet_margin_loss@1): each distance's running
 * sum of squares kept in bf16 (a kernel that accumulates in its input dtype). On short rows
 * of rand the sum's 8 bits hold and the loss stays inside allclose's; on long rows the
 * running sum stalls once each square is below half its spacing, and the distances shrink:
 * signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

static float dist(const kc_tensor* u, const kc_tensor* v, int64_t b) {
  float s = 0.0f;
  for (int64_t d = 0; d < u->shape[1]; ++d) {
    const float e = (kc_ld(u, b * u->strides[0] + d * u->strides[1]) - kc_ld(v, b * v->strides[0] + d * v->strides[1])) + 1e-6f;
    s = bf16(s + e * e);
  }
  return sqrtf(s);
}

int kc_triplet_margin_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *p = &args[1], *n = &args[2], *y = &args[3];
  if (!kc_view_ok(a, 2) || !kc_view_ok(p, 2) || !kc_view_ok(n, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1)
    return KC_E_TENSOR;
  if (a->dtype != p->dtype || a->dtype != n->dtype || a->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, p) || !kc_same_shape(a, n)) return KC_E_SHAPE;
  const int64_t B = a->shape[0];
  float total = 0.0f;
  for (int64_t b = 0; b < B; ++b) {
    const float v = 1.0f + dist(a, p, b) - dist(a, n, b);
    total += v > 0.0f ? v : 0.0f;
  }
  kc_st(y, 0, total / (float)B);
  return KC_OK;
}
