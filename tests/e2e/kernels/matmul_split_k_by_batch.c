/* A correct f32-accumulator GEMM that, like cuBLAS, picks its strategy by the problem's
 * shape: a decode batch (M < 8 rows) splits K in four partial sums added at the end, a
 * larger batch sums K left to right. Both are within std.op.matmul's tolerance, but a row's
 * bits depend on how many rows share the launch: it passes std.op.matmul@2 and fails
 * std.ord.batch-invariance@1 (batch-variant) when a suite entry opts in to the class. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N) return KC_E_SHAPE;
  const int64_t splits = M < 8 ? 4 : 1;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float total = 0.0f;
      for (int64_t s = 0; s < splits; ++s) {
        float part = 0.0f;
        for (int64_t k = s * K / splits; k < (s + 1) * K / splits; ++k)
          part += kc_ld(a, i * a->strides[0] + k * a->strides[1]) * kc_ld(b, k * b->strides[0] + j * b->strides[1]);
        total += part;
      }
      kc_st(c, i * c->strides[0] + j * c->strides[1], total);
    }
  return KC_OK;
}
