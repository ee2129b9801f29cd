/* Diagnosis corpus, BUGGY (overflow): the int8 GEMM with an int16 accumulator (the width of
 * an 8 x 8 product, "enough"): a sum of two or more products of +-127 wraps around.
 * Twin: int8_gemm_tiled.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

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
  const int64_t as0 = a->strides[0], as1 = a->strides[1], bs0 = b->strides[0], bs1 = b->strides[1];
  const int64_t K4 = K - K % 4;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      const int8_t* ar = ap + i * as0;
      const int8_t* bc = bp + j * bs1;
      int16_t acc = 0; /* BUG: 16-bit accumulator, wraps */
      for (int64_t k = 0; k < K4; k += 4) /* dot4 */
        acc += ar[k * as1] * bc[k * bs0] + ar[(k + 1) * as1] * bc[(k + 1) * bs0] + ar[(k + 2) * as1] * bc[(k + 2) * bs0] +
               ar[(k + 3) * as1] * bc[(k + 3) * bs0];
      for (int64_t k = K4; k < K; ++k) acc += ar[k * as1] * bc[k * bs0];
      const float v = (float)acc * (sap[i * sa->strides[0]] * sbp[j * sb->strides[0]]);
      kc_st(c, i * c->strides[0] + j * c->strides[1], v);
    }
  return KC_OK;
}
