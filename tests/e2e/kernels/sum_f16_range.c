/* Row sums at f16 around the end of its range (tests/e2e/check_f16_range.sh), against
 * std.op.sum: the exact sum of a row of large-mean f16 values (10^4 to 10^6 each) is far
 * beyond 65504, so its f16 value is +Inf, which a correct kernel writes.
 *   kc_sum_f32_acc   accumulates in f32 and rounds once: Inf where the sum leaves f16 (PASS)
 *   kc_sum_saturate  the same, then clamps to +-65504 as a saturating conversion does (FAIL)
 *   kc_sum_f16_acc   rounds every partial sum to f16 (FAIL: low-precision-accumulator) */
#include "../../../stdlib/ops/kernels/kc_host.h"

static int shape_ok(kc_tensor* args, int32_t nargs) {
  return args != NULL && nargs == 2 && kc_view_ok(&args[0], 2) && kc_view_ok(&args[1], 1) &&
         args[0].dtype == args[1].dtype && args[1].shape[0] == args[0].shape[0];
}

static int row_sums(kc_tensor* args, int32_t nargs, int saturate, int f16_acc) {
  if (!shape_ok(args, nargs)) return KC_E_TENSOR;
  const kc_tensor* x = &args[0];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float acc = 0;
    _Float16 acc16 = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      float v = kc_ld(x, r * x->strides[0] + h * x->strides[1]);
      acc += v;
      acc16 = (_Float16)((float)acc16 + v);
    }
    float y = f16_acc ? (float)acc16 : acc;
    if (saturate) y = y > 65504.0f ? 65504.0f : y < -65504.0f ? -65504.0f : y;
    kc_st(&args[1], r * args[1].strides[0], y);
  }
  return KC_OK;
}

int kc_sum_f32_acc(kc_tensor* a, int32_t n, void* s) { (void)s; return row_sums(a, n, 0, 0); }
int kc_sum_saturate(kc_tensor* a, int32_t n, void* s) { (void)s; return row_sums(a, n, 1, 0); }
int kc_sum_f16_acc(kc_tensor* a, int32_t n, void* s) { (void)s; return row_sums(a, n, 0, 1); }
