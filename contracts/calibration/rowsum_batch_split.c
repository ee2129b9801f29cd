/* cal_rowsum, violating std.ord.batch-invariance@1: the reduction strategy depends on the
 * batch size, as a GEMV/GEMM library's heuristic does. A small batch (fewer than 4 rows, a
 * decode step) has too few rows to fill the machine, so each row is split four ways
 * (split-K) and the partial sums are added at the end; a large batch gets one sequential
 * accumulator per row. Both orders are f32 sums within the gamma(H) bound and within
 * allclose, and each is deterministic; but a row's bits change with the number of rows
 * launched beside it. */
#include "cal_views.h"

static float sequential(const kc_tensor* x, int64_t r) {
  float acc = 0;
  for (int64_t h = 0; h < x->shape[1]; ++h) acc += *cal_at2(x, r, h);
  return acc;
}

static float split_k(const kc_tensor* x, int64_t r) {
  int64_t H = x->shape[1], chunk = (H + 3) / 4;
  float part[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; ++k)
    for (int64_t h = k * chunk; h < H && h < (k + 1) * chunk; ++h) part[k] += *cal_at2(x, r, h);
  return (part[0] + part[1]) + (part[2] + part[3]);
}

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  int64_t R = x->shape[0];
  for (int64_t r = 0; r < R; ++r) ((float*)y->data)[r * y->strides[0]] = R < 4 ? split_k(x, r) : sequential(x, r);
  return 0;
}
