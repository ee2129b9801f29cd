/* Single-head attention of the standard library on the host
 * (stdlib/ops/{attention,attention_causal}.kcontract) and its batched multi-head and
 * grouped-query forms (stdlib/ops/{attention_heads,attention_gqa}.kcontract): conforming
 * reference kernels.
 *
 *   kc_attention(q: T[S, D], k: T[L, D], v: T[L, D] -> o: T[S, D])
 *   kc_attention_causal(q: T[S, D], k: T[S, D], v: T[S, D] -> o: T[S, D])    T in f32, bf16
 *   kc_attention_heads(q: T[B, H, S, D], k: T[B, H, L, D], v: T[B, H, L, D] -> o: T[B, H, S, D])
 *   kc_attention_gqa(q: T[B, H, S, D], k: T[B, HK, L, D], v: T[B, HK, L, D] -> o: T[B, H, S, D])
 *     (H a multiple of HK; query head h reads key/value head floor(h / (H / HK)))
 *
 * The flash-attention scheme on one core: for each query row, the keys in blocks of 16;
 * per block the scores in f32, the running maximum, the running normaliser and output
 * accumulator rescaled by exp(m_old - m_new) (online softmax), and one division at the
 * end. NaN in any score makes the running maximum NaN, and so the row. */
#include <stdlib.h>

#include "kc_host.h"

#define KB 16

/* One single-head problem: the views' last two dims at element offsets qb, kb, vb, ob
 * (the batch and head offsets); rank r = 2 or 4 (the strides of the last two dims). */
static void head(const kc_tensor* q, int64_t qb, const kc_tensor* k, int64_t kb, const kc_tensor* v, int64_t vb,
                 const kc_tensor* o, int64_t ob, int64_t S, int64_t L, int64_t D, int r, int causal, float* acc) {
  const int64_t qs0 = q->strides[r - 2], qs1 = q->strides[r - 1], ks0 = k->strides[r - 2], ks1 = k->strides[r - 1];
  const int64_t vs0 = v->strides[r - 2], vs1 = v->strides[r - 1], os0 = o->strides[r - 2], os1 = o->strides[r - 1];
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
          dot += kc_ld(q, qb + i * qs0 + d * qs1) * kc_ld(k, kb + (j0 + j) * ks0 + d * ks1);
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
        for (int64_t d = 0; d < D; ++d) acc[d] += p * kc_ld(v, vb + (j0 + j) * vs0 + d * vs1);
      }
      m = mn;
    }
    const float inv = 1.0f / z;
    for (int64_t d = 0; d < D; ++d) kc_st(o, ob + i * os0 + d * os1, acc[d] * inv);
  }
}

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
  head(q, 0, k, 0, v, 0, o, 0, S, L, D, 2, causal, acc);
  free(acc);
  return KC_OK;
}

/* [B, H, S, D] queries against [B, HK, L, D] keys and values, HK dividing H (HK = H unless
 * grouped). */
static int run_heads(kc_tensor* args, int32_t nargs, int grouped) {
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!kc_view_ok(q, 4) || !kc_view_ok(k, 4) || !kc_view_ok(v, 4) || !kc_view_ok(o, 4)) return KC_E_TENSOR;
  if (q->dtype != o->dtype || k->dtype != o->dtype || v->dtype != o->dtype) return KC_E_TENSOR;
  const int64_t B = q->shape[0], H = q->shape[1], S = q->shape[2], D = q->shape[3];
  const int64_t HK = k->shape[1], L = k->shape[2];
  if (k->shape[0] != B || k->shape[3] != D || !kc_same_shape(k, v) || !kc_same_shape(q, o)) return KC_E_SHAPE;
  if (HK < 1 || H % HK != 0 || (!grouped && HK != H)) return KC_E_SHAPE;
  float* acc = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  if (acc == NULL) return KC_E_SHAPE;
  for (int64_t n = 0; n < B; ++n)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t g = h / (H / HK);
      head(q, n * q->strides[0] + h * q->strides[1], k, n * k->strides[0] + g * k->strides[1], v,
           n * v->strides[0] + g * v->strides[1], o, n * o->strides[0] + h * o->strides[1], S, L, D, 4, 0, acc);
    }
  free(acc);
  return KC_OK;
}

int kc_attention(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0); }
int kc_attention_causal(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1); }
int kc_attention_heads(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_heads(args, nargs, 0); }
int kc_attention_gqa(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_heads(args, nargs, 1); }
