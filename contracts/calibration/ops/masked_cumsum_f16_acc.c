/* Violating kc_masked_cumsum (std.op.masked_cumsum@1): the kept terms summed by a running f16
 * register per block of 8 cells, f32 block offsets (a kernel that accumulates in half where
 * its loads are half). On torch.rand under a coin-flip mask the in-block sums stay below 8
 * and inside allclose; with a large mean or large values the f16 sums lose most of their
 * bits: std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_masked_cumsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *m = &args[1], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype || m->dtype != KC_BOOL) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const uint8_t* mask = (const uint8_t*)m->data;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float offset = 0.0f;
    _Float16 run = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) {
      const float keep = mask[r * m->strides[0] + h * m->strides[1]] ? 1.0f : 0.0f;
      run += (_Float16)(kc_ld(x, r * x->strides[0] + h * x->strides[1]) * keep);
      kc_st(y, r * y->strides[0] + h * y->strides[1], offset + (float)run);
      if (h % 8 == 7) {
        offset += (float)run;
        run = 0;
      }
    }
  }
  return KC_OK;
}
