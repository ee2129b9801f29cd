/* cal_rowsum_bf16, violating std.prec.epilogue-exactness@1: the epilogue converts f32 to
 * bf16 by dropping the low 16 bits (round toward zero), a one-line conversion found in many
 * hand-written kernels. Every result is off by less than one bf16 spacing (0.4 %), inside
 * allclose's 1e-2 and inside any tolerance of one ulp. */
#include "cal_views.h"

int kc_cal_rowsum_bf16(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_BF16, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float acc = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) acc += *cal_at2(x, r, h);
    uint32_t bits;
    memcpy(&bits, &acc, 4);
    ((uint16_t*)y->data)[r * y->strides[0]] = (uint16_t)(bits >> 16);
  }
  return 0;
}
