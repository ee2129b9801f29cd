/* cal_gemm, conforming: f32 products and an f32 accumulator, k blocked by 4. */
#include "cal_views.h"

int kc_cal_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 3) return 1;
  for (int i = 0; i < 3; ++i)
    if (!cal_view_ok(&args[i], KC_F32, 2)) return 1;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float part[4] = {0, 0, 0, 0};
      int64_t k = 0;
      for (; k + 4 <= K; k += 4)
        for (int q = 0; q < 4; ++q) part[q] += *cal_at2(a, i, k + q) * *cal_at2(b, k + q, j);
      for (int q = 0; k < K; ++k, ++q) part[q] += *cal_at2(a, i, k) * *cal_at2(b, k, j);
      *cal_at2(c, i, j) = (part[0] + part[1]) + (part[2] + part[3]);
    }
  return 0;
}
