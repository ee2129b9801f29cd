/* Violating kc_attention_gqa (std.op.attention_gqa@1): pairs query head h with key/value head
 * h % HK, the interleaved map (k and v repeated with torch's repeat(1, G, 1, 1) where
 * repeat_interleave(G, dim=1) was meant), for floor(h / G), the grouped one. The two maps
 * agree when HK = 1 (multi-query) or G = 1 (multi-head), the shapes such a kernel is first
 * tested at, so allclose at an MHA shape passes; with real groups (HK > 1 and G > 1) every
 * head past the first whose two maps differ attends with another head's keys and values:
 * signature kv-head-map. Otherwise the reference kernel's flash loop. */
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_attention_gqa(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!kc_view_ok(q, 4) || !kc_view_ok(k, 4) || !kc_view_ok(v, 4) || !kc_view_ok(o, 4)) return KC_E_TENSOR;
  if (q->dtype != o->dtype || k->dtype != o->dtype || v->dtype != o->dtype) return KC_E_TENSOR;
  const int64_t B = q->shape[0], H = q->shape[1], S = q->shape[2], D = q->shape[3], HK = k->shape[1], L = k->shape[2];
  if (k->shape[0] != B || k->shape[3] != D || !kc_same_shape(k, v) || !kc_same_shape(q, o)) return KC_E_SHAPE;
  if (HK < 1 || H % HK != 0) return KC_E_SHAPE;
  float* acc = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  if (acc == NULL) return KC_E_SHAPE;
  const float scale = 1.0f / sqrtf((float)D);
  for (int64_t n = 0; n < B; ++n)
    for (int64_t h = 0; h < H; ++h) {
      const int64_t g = h % HK; /* the interleaved map: floor(h / (H / HK)) is meant */
      const int64_t qb = n * q->strides[0] + h * q->strides[1], ob = n * o->strides[0] + h * o->strides[1];
      const int64_t kb = n * k->strides[0] + g * k->strides[1], vb = n * v->strides[0] + g * v->strides[1];
      for (int64_t i = 0; i < S; ++i) {
        float m = -INFINITY, z = 0.0f;
        for (int64_t d = 0; d < D; ++d) acc[d] = 0.0f;
        for (int64_t j = 0; j < L; ++j) {
          float dot = 0.0f;
          for (int64_t d = 0; d < D; ++d)
            dot += kc_ld(q, qb + i * q->strides[2] + d * q->strides[3]) * kc_ld(k, kb + j * k->strides[2] + d * k->strides[3]);
          const float s = dot * scale;
          const float mn = isnan(m) || isnan(s) ? NAN : (s > m ? s : m);
          const float corr = expf(m - mn);
          const float p = expf(s - mn);
          z = z * corr + p;
          for (int64_t d = 0; d < D; ++d) acc[d] = acc[d] * corr + p * kc_ld(v, vb + j * v->strides[2] + d * v->strides[3]);
          m = mn;
        }
        for (int64_t d = 0; d < D; ++d) kc_st(o, ob + i * o->strides[2] + d * o->strides[3], acc[d] / z);
      }
    }
  free(acc);
  return KC_OK;
}
