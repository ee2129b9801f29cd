/* Single-head attention of the standard library on the host
 * (stdlib/ops/{attention,attention_causal}.kcontract): conforming reference kernels.
 *
 *   kc_attention(q: T[S, D], k: T[L, D], v: T[L, D] -> o: T[S, D])
 *   kc_attention_causal(q: T[S, D], k: T[S, D], v: T[S, D] -> o: T[S, D])    T in f32, bf16
 *
 * The flash-attention scheme on one core: for each query row, the keys in blocks of 16;
 * per block the scores in f32, the running maximum, the running normaliser and output
 * accumulator rescaled by exp(m_old - m_new) (online softmax), and one division at the
 * end. NaN in any score makes the running maximum NaN, and so the row. */
#include <stdlib.h>

#include "kc_host.h"

#define KB 16

static int run(kc_tensor* args, int32_t nargs, int causal) {
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!kc_view_ok(q, 2) || !kc_view_ok(k, 2) || !kc_view_ok(v, 2) || !kc_view_ok(o, 2)) return KC_E_TENSOR;
  if (q->dtype != o->dtype || k->dtype != o->dtype || v->dtype != o->dtype) return KC_E_TENSOR;
  const int64_t S = q->shape[0], D = q->shape[1], L = k->shape[0];
  if (k->shape[1] != D || v->shape[0] != L || v->shape[1] != D || !kc_same_shape(q, o)) return KC_E_SHAPE;
  if (causal && L != S) return KC_E_SHAPE;
  float* acc = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  if (acc == NULL) return KC_E_SHAPE;
  const float scale = 1.0f / sqrtf((float)D);
  for (int64_t i = 0; i < S; ++i) {
    const int64_t keys = causal ? i + 1 : L;
    float m = -INFINITY, z = 0.0f;
    for (int64_t d = 0; d < D; ++d) acc[d] = 0.0f;
    for (int64_t j0 = 0; j0 < keys; j0 += KB) {
      const int64_t nb = keys - j0 < KB ? keys - j0 : KB;
      float s[KB];
      float bm = -INFINITY;
      for (int64_t j = 0; j < nb; ++j) {
        float dot = 0.0f;
        for (int64_t d = 0; d < D; ++d)
          dot += kc_ld(q, i * q->strides[0] + d * q->strides[1]) * kc_ld(k, (j0 + j) * k->strides[0] + d * k->strides[1]);
        s[j] = dot * scale;
        if (s[j] > bm || isnan(s[j])) bm = s[j];
      }
      const float mn = isnan(m) || isnan(bm) ? NAN : (bm > m ? bm : m);
      const float corr = expf(m - mn); /* 0 on the first block (m = -inf) */
      z *= corr;
      for (int64_t d = 0; d < D; ++d) acc[d] *= corr;
      for (int64_t j = 0; j < nb; ++j) {
        const float p = expf(s[j] - mn);
        z += p;
        for (int64_t d = 0; d < D; ++d) acc[d] += p * kc_ld(v, (j0 + j) * v->strides[0] + d * v->strides[1]);
      }
      m = mn;
    }
    const float inv = 1.0f / z;
    for (int64_t d = 0; d < D; ++d) kc_st(o, i * o->strides[0] + d * o->strides[1], acc[d] * inv);
  }
  free(acc);
  return KC_OK;
}

int kc_attention(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0); }
int kc_attention_causal(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1); }
