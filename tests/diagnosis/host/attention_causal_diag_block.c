/* Diagnosis corpus, BUGGY (tail-over-read, of the causal limit): the causal flash kernel
 * that skips key blocks entirely above the diagonal but does not mask inside the diagonal
 * block: it runs the whole block of 32 keys containing key i (up to min(S, block end)), so
 * query i also attends to the future keys i + 1 .. of its own last, partial tile.
 * Twin: attention_flash.c (kc_attention_causal). */
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

#define BK 32

static int run(kc_tensor* args, int32_t nargs, int causal) {
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!kc_view_ok(q, 2) || !kc_view_ok(k, 2) || !kc_view_ok(v, 2) || !kc_view_ok(o, 2)) return KC_E_TENSOR;
  if (q->dtype != o->dtype || k->dtype != o->dtype || v->dtype != o->dtype) return KC_E_TENSOR;
  const int64_t S = q->shape[0], D = q->shape[1], L = k->shape[0];
  if (k->shape[1] != D || v->shape[0] != L || v->shape[1] != D || !kc_same_shape(q, o)) return KC_E_SHAPE;
  if (causal && L != S) return KC_E_SHAPE;
  float* acc = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  float* qi = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  if (acc == NULL || qi == NULL) {
    free(acc);
    free(qi);
    return KC_E_SHAPE;
  }
  const float scale = 1.0f / sqrtf((float)D);
  for (int64_t i = 0; i < S; ++i) {
    const int64_t nk = causal ? i + 1 : L;
    for (int64_t d = 0; d < D; ++d) qi[d] = kc_ld(q, i * q->strides[0] + d * q->strides[1]), acc[d] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    for (int64_t j0 = 0; j0 < nk; j0 += BK) {
      const int64_t lim = causal ? (j0 + BK < S ? j0 + BK : S) : nk; /* BUG: the diagonal block unmasked */
      const int64_t nb = lim - j0 < BK ? lim - j0 : BK;
      float s[BK];
      float bm = -INFINITY;
      for (int64_t j = 0; j < nb; ++j) {
        float dot = 0.0f;
        for (int64_t d = 0; d < D; ++d) dot += qi[d] * kc_ld(k, (j0 + j) * k->strides[0] + d * k->strides[1]);
        s[j] = dot * scale;
        if (s[j] > bm || isnan(s[j])) bm = s[j];
      }
      const float mn = (isnan(m) || isnan(bm)) ? NAN : (bm > m ? bm : m);
      const float corr = expf(m - mn); /* 0 on the first block */
      l *= corr;
      for (int64_t d = 0; d < D; ++d) acc[d] *= corr;
      for (int64_t j = 0; j < nb; ++j) {
        const float p = expf(s[j] - mn);
        l += p;
        for (int64_t d = 0; d < D; ++d) acc[d] += p * kc_ld(v, (j0 + j) * v->strides[0] + d * v->strides[1]);
      }
      m = mn;
    }
    const float inv = 1.0f / l;
    for (int64_t d = 0; d < D; ++d) kc_st(o, i * o->strides[0] + d * o->strides[1], acc[d] * inv);
  }
  free(acc);
  free(qi);
  return KC_OK;
}

int kc_attention(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0); }
int kc_attention_causal(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1); }
