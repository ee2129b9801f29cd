/* A correct reciprocal square root, written the way a CPU kernel is: sqrtf, then the
 * division in f32, then one rounding to the output dtype (bf16 rounded to nearest even).
 *   kc_rsqrt_f32(x -> y), kc_rsqrt_bf16(x -> y)     x, y: T[N], strided */
#include <math.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

static int run(kc_tensor* args, int32_t nargs, int32_t dtype) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  if (!kc_view_ok(x, 1) || !kc_view_ok(y, 1) || x->dtype != dtype || y->dtype != dtype) return KC_E_TENSOR;
  if (x->shape[0] != y->shape[0]) return KC_E_SHAPE;
  for (int64_t i = 0; i < x->shape[0]; ++i) {
    float v = kc_ld(x, i * x->strides[0]);
    kc_st(y, i * y->strides[0], 1.0f / sqrtf(v));
  }
  return KC_OK;
}

int kc_rsqrt_f32(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return run(args, nargs, KC_F32);
}

int kc_rsqrt_bf16(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return run(args, nargs, KC_BF16);
}
