/* Violating kc_kl_div (std.op.kl_div@1): each term as q * (log q - log p), as the formula is
 * written, without torch's guard for q = 0 (xlogy). On softmax-like targets, every q
 * positive, it is right and inside allclose's; on a classification target (one-hot rows,
 * every q but one 0) 0 * -inf makes the loss NaN: signature log-of-zero. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_kl_div(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *q = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 2) || !kc_view_ok(q, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != q->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(p, q)) return KC_E_SHAPE;
  const int64_t B = p->shape[0], D = p->shape[1];
  double total = 0.0;
  for (int64_t b = 0; b < B; ++b) {
    float row = 0.0f;
    for (int64_t d = 0; d < D; ++d) {
      const float pv = kc_ld(p, b * p->strides[0] + d * p->strides[1]);
      const float qv = kc_ld(q, b * q->strides[0] + d * q->strides[1]);
      row += qv * (logf(qv) - logf(pv));
    }
    total += row;
  }
  kc_st(y, 0, (float)(total / (double)B));
  return KC_OK;
}
