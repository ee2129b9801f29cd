/* Violating kc_cumprod (std.op.cumprod@1): the running product kept in bf16 (a kernel that
 * multiplies in its input dtype). Each step rounds to 8 bits, a relative error of up to 2^-9;
 * on rows of 8 factors that stays inside allclose's, and over rows of
 * factors near 1 it drifts a little further at every step: signature
 * low-precision-accumulator (the error grows with H). */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float bf16(float v) { return kc_bf16_to_f32(kc_f32_to_bf16(v)); }

int kc_cumprod(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float run = 1.0f;
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      run = bf16(run * kc_ld(x, r * x->strides[0] + h * x->strides[1]));
      kc_st(y, r * y->strides[0] + h * y->strides[1], run);
    }
  }
  return KC_OK;
}
