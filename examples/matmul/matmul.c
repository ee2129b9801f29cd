/* acme_gemm on the host: the correct kernel (examples/matmul/matmul.kcontract).
 *
 *   kc_acme_gemm(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N]),   c[i, j] = sum over k of a[i, k] b[k, j]
 *
 * f32 accumulation, blocked the way a GPU kernel is. K runs in tiles of KTILE = 32: each
 * tile's 32 products are summed into a partial, which is then added to the running total
 * (the last tile is partial when K % 32 != 0). Each tile of b (32 x JCHUNK) is first copied
 * into a contiguous local buffer, so that transposed and padded b cost the same as
 * contiguous b, and the inner loops run a fixed JCHUNK columns (zero-padded past N), so
 * -O2 vectorizes them. Rows of a are processed IBLOCK at a time with their totals in a local
 * buffer; c is written once per cell at the end. Any strides are honoured for a, b and c.
 * Indices are 64-bit, so operands with more than 2^31 elements are addressed correctly.
 *
 * Only f32 is supported; anything else (dtype, rank, nargs, a:[M,K] b:[K,N] c:[M,N] not
 * agreeing) returns nonzero without touching memory. */
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3 };
enum { KTILE = 32, JCHUNK = 128, IBLOCK = 32 };

static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

/* tile[kk][j] = b[k0 + kk, j0 + j] for kk < kn, j < jn; zero for j >= jn. Walks b along its
 * smaller stride. */
static void pack_b(float tile[KTILE][JCHUNK], const float* b, int64_t bs0, int64_t bs1,
                   int64_t k0, int64_t kn, int64_t j0, int64_t jn) {
  const float* base = b + k0 * bs0 + j0 * bs1;
  if (bs0 < bs1) {
    for (int64_t j = 0; j < jn; ++j)
      for (int64_t kk = 0; kk < kn; ++kk) tile[kk][j] = base[kk * bs0 + j * bs1];
  } else {
    for (int64_t kk = 0; kk < kn; ++kk)
      for (int64_t j = 0; j < jn; ++j) tile[kk][j] = base[kk * bs0 + j * bs1];
  }
  for (int64_t kk = 0; kk < kn; ++kk)
    for (int64_t j = jn; j < JCHUNK; ++j) tile[kk][j] = 0.0f;
}

int kc_acme_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* at = &args[0];
  const kc_tensor* bt = &args[1];
  const kc_tensor* ct = &args[2];
  if (!view2d_ok(at) || !view2d_ok(bt) || !view2d_ok(ct)) return KC_E_TENSOR;
  const int64_t M = at->shape[0], K = at->shape[1], N = bt->shape[1];
  if (bt->shape[0] != K || ct->shape[0] != M || ct->shape[1] != N) return KC_E_SHAPE;
  if (M == 0 || N == 0) return KC_OK;

  const float* a = (const float*)at->data;
  const float* b = (const float*)bt->data;
  float* c = (float*)ct->data;
  const int64_t as0 = at->strides[0], as1 = at->strides[1];
  const int64_t bs0 = bt->strides[0], bs1 = bt->strides[1];
  const int64_t cs0 = ct->strides[0], cs1 = ct->strides[1];

  float tile[KTILE][JCHUNK];
  float acc[IBLOCK][JCHUNK];
  float part[JCHUNK];
  for (int64_t j0 = 0; j0 < N; j0 += JCHUNK) {
    const int64_t jn = (N - j0 < JCHUNK) ? N - j0 : JCHUNK;
    for (int64_t i0 = 0; i0 < M; i0 += IBLOCK) {
      const int64_t in = (M - i0 < IBLOCK) ? M - i0 : IBLOCK;
      for (int64_t ii = 0; ii < in; ++ii)
        for (int j = 0; j < JCHUNK; ++j) acc[ii][j] = 0.0f;
      for (int64_t k0 = 0; k0 < K; k0 += KTILE) {
        const int64_t kn = (K - k0 < KTILE) ? K - k0 : KTILE;  /* the tail tile is partial */
        pack_b(tile, b, bs0, bs1, k0, kn, j0, jn);
        for (int64_t ii = 0; ii < in; ++ii) {
          const float* arow = a + (i0 + ii) * as0 + k0 * as1;
          for (int j = 0; j < JCHUNK; ++j) part[j] = 0.0f;
          for (int64_t kk = 0; kk < kn; ++kk) {
            const float aik = arow[kk * as1];
            for (int j = 0; j < JCHUNK; ++j) part[j] += aik * tile[kk][j];
          }
          for (int j = 0; j < JCHUNK; ++j) acc[ii][j] += part[j];
        }
      }
      for (int64_t ii = 0; ii < in; ++ii) {
        float* crow = c + (i0 + ii) * cs0 + j0 * cs1;
        for (int64_t j = 0; j < jn; ++j) crow[j * cs1] = acc[ii][j];
      }
    }
  }
  return KC_OK;
}
