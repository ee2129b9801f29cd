/* Diagnosis corpus, BUGGY (accumulate-overwrite): the register-blocked GEMM whose panel
 * epilogue assigns the panel's partial products to the tile accumulator instead of adding
 * them: `acc = part` for `acc += part`. Right for K <= 8 (one panel); for longer K only the
 * last panel survives. Twin: matmul_tiled.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define MR 4
#define NR 4
#define KP 8

int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N) return KC_E_SHAPE;
  const int64_t as0 = a->strides[0], as1 = a->strides[1], bs0 = b->strides[0], bs1 = b->strides[1];
  for (int64_t i0 = 0; i0 < M; i0 += MR) {
    const int64_t mi = M - i0 < MR ? M - i0 : MR;
    for (int64_t j0 = 0; j0 < N; j0 += NR) {
      const int64_t nj = N - j0 < NR ? N - j0 : NR;
      float acc[MR][NR] = {{0}};
      for (int64_t k0 = 0; k0 < K; k0 += KP) {
        const int64_t kk = K - k0 < KP ? K - k0 : KP;
        float part[MR][NR] = {{0}};
        for (int64_t k = 0; k < kk; ++k)
          for (int64_t i = 0; i < mi; ++i) {
            const float av = kc_ld(a, (i0 + i) * as0 + (k0 + k) * as1);
            for (int64_t j = 0; j < nj; ++j) part[i][j] += av * kc_ld(b, (k0 + k) * bs0 + (j0 + j) * bs1);
          }
        for (int64_t i = 0; i < mi; ++i)
          for (int64_t j = 0; j < nj; ++j) acc[i][j] = part[i][j]; /* BUG: = for += */
      }
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) kc_st(c, (i0 + i) * c->strides[0] + (j0 + j) * c->strides[1], acc[i][j]);
    }
  }
  return KC_OK;
}
