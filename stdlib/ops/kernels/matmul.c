/* Matrix products of the standard library on the host (stdlib/ops/{matmul,bmm}.kcontract):
 * conforming reference kernels.
 *
 *   kc_matmul(a: T[M, K], b: T[K, N] -> c: T[M, N])
 *   kc_bmm(a: T[B, M, K], b: T[B, K, N] -> c: T[B, M, N])          T in f32, bf16, f16
 *
 * A blocked GEMM the way a CPU kernel is written: tiles of 16 x 16 outputs, K in panels of
 * 64; inside a panel each output accumulates its dot product in f32, and the panel's
 * partial sum is added to the tile's f32 accumulator (so the summation order is neither
 * the oracle's nor left to right). Tails in M, N and K are masked, not padded. One rounding
 * to T at the end. */
#include "kc_host.h"

#define TM 16
#define TN 16
#define TK 64

/* One product c = a b of the views at element offsets ao, bo, co with the given strides. */
static void gemm(const kc_tensor* a, int64_t ao, int64_t as0, int64_t as1, const kc_tensor* b, int64_t bo, int64_t bs0,
                 int64_t bs1, const kc_tensor* c, int64_t co, int64_t cs0, int64_t cs1, int64_t M, int64_t N, int64_t K) {
  float acc[TM][TN];
  for (int64_t i0 = 0; i0 < M; i0 += TM) {
    const int64_t mi = M - i0 < TM ? M - i0 : TM;
    for (int64_t j0 = 0; j0 < N; j0 += TN) {
      const int64_t nj = N - j0 < TN ? N - j0 : TN;
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) acc[i][j] = 0.0f;
      for (int64_t k0 = 0; k0 < K; k0 += TK) {
        const int64_t kk = K - k0 < TK ? K - k0 : TK;
        for (int64_t i = 0; i < mi; ++i)
          for (int64_t j = 0; j < nj; ++j) {
            float part = 0.0f;
            for (int64_t k = 0; k < kk; ++k)
              part += kc_ld(a, ao + (i0 + i) * as0 + (k0 + k) * as1) * kc_ld(b, bo + (k0 + k) * bs0 + (j0 + j) * bs1);
            acc[i][j] += part;
          }
      }
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) kc_st(c, co + (i0 + i) * cs0 + (j0 + j) * cs1, acc[i][j]);
    }
  }
}

int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N) return KC_E_SHAPE;
  gemm(a, 0, a->strides[0], a->strides[1], b, 0, b->strides[0], b->strides[1], c, 0, c->strides[0], c->strides[1], M, N, K);
  return KC_OK;
}

int kc_bmm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 3) || !kc_view_ok(b, 3) || !kc_view_ok(c, 3)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t B = a->shape[0], M = a->shape[1], K = a->shape[2], N = b->shape[2];
  if (b->shape[0] != B || b->shape[1] != K || c->shape[0] != B || c->shape[1] != M || c->shape[2] != N) return KC_E_SHAPE;
  for (int64_t n = 0; n < B; ++n)
    gemm(a, n * a->strides[0], a->strides[1], a->strides[2], b, n * b->strides[0], b->strides[1], b->strides[2], c,
         n * c->strides[0], c->strides[1], c->strides[2], M, N, K);
  return KC_OK;
}
