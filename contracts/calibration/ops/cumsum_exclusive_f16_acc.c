/* Violating kc_cumsum_exclusive (std.op.cumsum_exclusive@1): the scan of the cells before
 * each one with in-block running sums (blocks of 8) kept in f16 registers, f32 block offsets
 * (as kc_cumsum's f16 calibration kernel, one cell behind). On randn the in-block sums stay
 * small and inside allclose; with a large mean or large values the f16 sums lose most of their
 * bits: std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_cumsum_exclusive(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float offset = 0.0f;
    _Float16 run = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      kc_st(y, r * y->strides[0] + h * y->strides[1], offset + (float)run);
      if (h % 8 == 7) {
        offset += (float)run;
        run = 0;
      }
      run += (_Float16)kc_ld(x, r * x->strides[0] + h * x->strides[1]);
    }
  }
  return KC_OK;
}
