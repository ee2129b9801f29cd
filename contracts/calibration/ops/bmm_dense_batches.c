/* Violating kc_bmm (std.op.bmm@1): honours the row and column strides of each matrix but
 * steps from one batch to the next by M*K, K*N and M*N elements, as if the batches were
 * packed one after another (what a fresh torch.randn(B, M, K) is). Exact on contiguous
 * tensors (allclose passes); on a padded, offset or sliced batch every batch after the
 * first reads and writes the wrong slice: signature batch-stride. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_bmm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 3) || !kc_view_ok(b, 3) || !kc_view_ok(c, 3)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t B = a->shape[0], M = a->shape[1], K = a->shape[2], N = b->shape[2];
  if (b->shape[0] != B || b->shape[1] != K || c->shape[0] != B || c->shape[1] != M || c->shape[2] != N) return KC_E_SHAPE;
  for (int64_t n = 0; n < B; ++n) {
    const int64_t ao = n * M * K, bo = n * K * N, co = n * M * N;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float s = 0.0f;
        for (int64_t k = 0; k < K; ++k)
          s += kc_ld(a, ao + i * a->strides[1] + k * a->strides[2]) * kc_ld(b, bo + k * b->strides[1] + j * b->strides[2]);
        kc_st(c, co + i * c->strides[1] + j * c->strides[2], s);
      }
  }
  return KC_OK;
}
