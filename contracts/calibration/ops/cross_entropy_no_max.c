/* Violating kc_cross_entropy (std.op.cross_entropy@1): each row's term as
 * log(sum(exp(x))) - x[t], the row maximum never subtracted. On logits of rand it is right
 * and inside allclose's; once some x > 88 the exponentials overflow f32 to Inf (a row whose
 * every x is below -87 sums to 0, whose log is -Inf): signature overflow. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_cross_entropy(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1 || x->dtype != y->dtype) return KC_E_TENSOR;
  if ((t->dtype != KC_I32 && t->dtype != KC_I64) || t->rank != 1) return KC_E_TENSOR;
  if (t->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t B = x->shape[0], C = x->shape[1];
  float total = 0.0f;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t toff = b * t->strides[0];
    const int64_t k = t->dtype == KC_I32 ? ((const int32_t*)t->data)[toff] : ((const int64_t*)t->data)[toff];
    if (k < 0 || k >= C) return KC_E_INDEX;
    const int64_t xb = b * x->strides[0];
    float s = 0.0f;
    for (int64_t c = 0; c < C; ++c) s += expf(kc_ld(x, xb + c * x->strides[1]));
    total += logf(s) - kc_ld(x, xb + k * x->strides[1]);
  }
  kc_st(y, 0, total / (float)B);
  return KC_OK;
}
