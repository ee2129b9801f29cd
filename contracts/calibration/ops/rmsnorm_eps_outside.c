/* Violating kc_rmsnorm (std.op.rmsnorm@1): x / (sqrt(mean(x^2)) + eps), eps outside the
 * square root. On randn the mean square is about 1 and eps = 1e-5 moves y by 1e-5; when
 * the mean square is near eps the results differ by a large factor: signature
 * eps-outside-sqrt. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_rmsnorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(&args[1], 0) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[1]);
  const int64_t H = x->shape[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float s2 = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
      float v = kc_ld(x, xb + h * x->strides[1]);
      s2 += v * v;
    }
    const float d = sqrtf(s2 / (float)H) + eps;
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], kc_ld(x, xb + h * x->strides[1]) / d);
  }
  return KC_OK;
}
