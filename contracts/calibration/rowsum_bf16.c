/* cal_rowsum_bf16, conforming: f32 accumulation, one rounding to bf16 (nearest even). */
#include "cal_views.h"

int kc_cal_rowsum_bf16(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_BF16, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    float acc = 0;
    for (int64_t h = 0; h < x->shape[1]; ++h) acc += *cal_at2(x, r, h);
    ((uint16_t*)y->data)[r * y->strides[0]] = cal_bf16_rne(acc);
  }
  return 0;
}
