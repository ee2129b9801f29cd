/* Scaled int8 GEMM of the standard library on the host (stdlib/ops/int8_gemm.kcontract):
 * the conforming reference kernel.
 *
 *   kc_int8_gemm(a: i8[M, K], b: i8[K, N], scale_a: f32[M], scale_b: f32[N] -> c: bf16[M, N])
 *
 * Tiles of 16 x 16 outputs with int32 accumulators, K in panels of 64 (exact in any order),
 * then the epilogue: the accumulator to f32, times scale_a[i] * scale_b[j] in f32, one
 * rounding to bf16. */
#include "kc_host.h"

#define TM 16
#define TN 16
#define TK 64

static int view_ok(const kc_tensor* t, int32_t dtype, int32_t rank) {
  if (t->dtype != dtype || t->rank != rank || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < rank; ++d)
    if (t->shape[d] < 0 || (t->shape[d] > 1 && t->strides[d] < 1)) return 0;
  return 1;
}

int kc_int8_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 5) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *sa = &args[2], *sb = &args[3], *c = &args[4];
  if (!view_ok(a, KC_I8, 2) || !view_ok(b, KC_I8, 2) || !view_ok(sa, KC_F32, 1) || !view_ok(sb, KC_F32, 1) ||
      !view_ok(c, KC_BF16, 2))
    return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || sa->shape[0] != M || sb->shape[0] != N || c->shape[0] != M || c->shape[1] != N)
    return KC_E_SHAPE;
  const int8_t* ap = (const int8_t*)a->data;
  const int8_t* bp = (const int8_t*)b->data;
  const float* sap = (const float*)sa->data;
  const float* sbp = (const float*)sb->data;
  int32_t acc[TM][TN];
  for (int64_t i0 = 0; i0 < M; i0 += TM) {
    const int64_t mi = M - i0 < TM ? M - i0 : TM;
    for (int64_t j0 = 0; j0 < N; j0 += TN) {
      const int64_t nj = N - j0 < TN ? N - j0 : TN;
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) acc[i][j] = 0;
      for (int64_t k0 = 0; k0 < K; k0 += TK) {
        const int64_t kk = K - k0 < TK ? K - k0 : TK;
        for (int64_t i = 0; i < mi; ++i)
          for (int64_t k = 0; k < kk; ++k) {
            const int32_t av = ap[(i0 + i) * a->strides[0] + (k0 + k) * a->strides[1]];
            for (int64_t j = 0; j < nj; ++j) acc[i][j] += av * (int32_t)bp[(k0 + k) * b->strides[0] + (j0 + j) * b->strides[1]];
          }
      }
      for (int64_t i = 0; i < mi; ++i)
        for (int64_t j = 0; j < nj; ++j) {
          const float v = (float)acc[i][j] * (sap[(i0 + i) * sa->strides[0]] * sbp[(j0 + j) * sb->strides[0]]);
          kc_st(c, (i0 + i) * c->strides[0] + (j0 + j) * c->strides[1], v);
        }
    }
  }
  return KC_OK;
}
