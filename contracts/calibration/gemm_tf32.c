/* cal_gemm, violating std.prec.operand-coercion@1: rounds both operands to TF32 (10 mantissa
 * bits, nearest even) before the f32 products, as a GEMM silently run on TF32 tensor cores
 * does (torch.backends.cuda.matmul.allow_tf32). A relative error near 1e-3 of the products
 * stays inside allclose's 1e-2. */
#include "cal_views.h"

static float tf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
  memcpy(&f, &u, 4);
  return f;
}

int kc_cal_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 3) return 1;
  for (int i = 0; i < 3; ++i)
    if (!cal_view_ok(&args[i], KC_F32, 2)) return 1;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += tf32(*cal_at2(a, i, k)) * tf32(*cal_at2(b, k, j));
      *cal_at2(c, i, j) = acc;
    }
  return 0;
}
