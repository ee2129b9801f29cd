/* Violating kc_sum (std.op.sum@1): a vectorised row sum whose 8 lane accumulators are f16
 * (half-precision registers, as a kernel that keeps partial sums in the input's storage
 * type would); the lanes are combined in f32. On randn rows of 64 elements each lane sums 8
 * terms and the error is a few 1e-3, inside allclose; on long rows, or rows with a large
 * mean, it grows far past the f32 bound (and past 65504 a lane overflows):
 * std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    _Float16 lane[8] = {0};
    for (int64_t h = 0; h < x->shape[1]; ++h) lane[h % 8] += (_Float16)kc_ld(x, r * x->strides[0] + h * x->strides[1]);
    float s = 0.0f;
    for (int k = 0; k < 8; ++k) s += (float)lane[k];
    kc_st(y, r * y->strides[0], s);
  }
  return KC_OK;
}
