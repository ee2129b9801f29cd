/* Diagnosis corpus, CONFORMING twin of the bmm_*.c kernels: a batched GEMM, one
 * register-blocked product per batch (4 x 4 output tiles, the K loop unrolled by 4 with a
 * remainder loop), each batch at its own strides, f32 accumulation, the same summation
 * order whatever the batch count. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define MR 4
#define NR 4

static void gemm(const kc_tensor* a, int64_t ao, const kc_tensor* b, int64_t bo, const kc_tensor* c, int64_t co,
                 int64_t M, int64_t N, int64_t K) {
  const int64_t as0 = a->strides[1], as1 = a->strides[2], bs0 = b->strides[1], bs1 = b->strides[2];
  const int64_t K4 = K - K % 4;
  for (int64_t i0 = 0; i0 < M; i0 += MR) {
    const int64_t mi = M - i0 < MR ? M - i0 : MR;
    for (int64_t j0 = 0; j0 < N; j0 += NR) {
      const int64_t nj = N - j0 < NR ? N - j0 : NR;
      float acc[MR][NR] = {{0}};
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) {
          const int64_t ar = ao + (i0 + i) * as0, bc = bo + (j0 + j) * bs1;
          float s = 0.0f;
          for (int64_t k = 0; k < K4; k += 4)
            s += kc_ld(a, ar + k * as1) * kc_ld(b, bc + k * bs0) + kc_ld(a, ar + (k + 1) * as1) * kc_ld(b, bc + (k + 1) * bs0) +
                 kc_ld(a, ar + (k + 2) * as1) * kc_ld(b, bc + (k + 2) * bs0) + kc_ld(a, ar + (k + 3) * as1) * kc_ld(b, bc + (k + 3) * bs0);
          for (int64_t k = K4; k < K; ++k) s += kc_ld(a, ar + k * as1) * kc_ld(b, bc + k * bs0);
          acc[i][j] = s;
        }
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) kc_st(c, co + (i0 + i) * c->strides[1] + (j0 + j) * c->strides[2], acc[i][j]);
    }
  }
}

int kc_bmm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 3) || !kc_view_ok(b, 3) || !kc_view_ok(c, 3)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t B = a->shape[0], M = a->shape[1], K = a->shape[2], N = b->shape[2];
  if (b->shape[0] != B || b->shape[1] != K || c->shape[0] != B || c->shape[1] != M || c->shape[2] != N) return KC_E_SHAPE;
  for (int64_t n = 0; n < B; ++n) gemm(a, n * a->strides[0], b, n * b->strides[0], c, n * c->strides[0], M, N, K);
  return KC_OK;
}
