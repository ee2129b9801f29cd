/* cal_rowsum, conforming: each row summed in f32 with 8 partial sums (the column tile), the
 * last partial tile included, then the partials added pairwise. Rows in tiles of 4 with a
 * remainder loop. Any summation order in f32 is within the contract's gamma(H) bound. */
#include "cal_views.h"

static float row_sum(const kc_tensor* x, int64_t r) {
  int64_t H = x->shape[1];
  float part[8] = {0};
  int64_t h = 0;
  for (; h + 8 <= H; h += 8)
    for (int k = 0; k < 8; ++k) part[k] += *cal_at2(x, r, h + k);
  for (int k = 0; h < H; ++h, ++k) part[k] += *cal_at2(x, r, h);
  for (int w = 4; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) part[k] += part[k + w];
  return part[0];
}

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  float* out = (float*)y->data;
  int64_t R = x->shape[0], r = 0;
  for (; r + 4 <= R; r += 4)
    for (int64_t i = 0; i < 4; ++i) out[(r + i) * y->strides[0]] = row_sum(x, r + i);
  for (; r < R; ++r) out[r * y->strides[0]] = row_sum(x, r);
  return 0;
}
