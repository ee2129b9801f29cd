/* Violating kc_attention and kc_attention_causal (std.op.attention@1,
 * std.op.attention_causal@1): the textbook softmax(q k^T / sqrt(D)) v without subtracting
 * the row maximum of the scores: p = expf(score), o = sum(p v) / sum(p), in f32. On randn
 * the scores are small and the result is accurate; once a score exceeds 88, expf overflows
 * to Inf and the row becomes Inf / Inf = NaN: signature overflow. */
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

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
    float z = 0.0f;
    for (int64_t d = 0; d < D; ++d) acc[d] = 0.0f;
    for (int64_t j = 0; j < keys; ++j) {
      float dot = 0.0f;
      for (int64_t d = 0; d < D; ++d)
        dot += kc_ld(q, i * q->strides[0] + d * q->strides[1]) * kc_ld(k, j * k->strides[0] + d * k->strides[1]);
      const float p = expf(dot * scale);
      z += p;
      for (int64_t d = 0; d < D; ++d) acc[d] += p * kc_ld(v, j * v->strides[0] + d * v->strides[1]);
    }
    for (int64_t d = 0; d < D; ++d) kc_st(o, i * o->strides[0] + d * o->strides[1], acc[d] / z);
  }
  free(acc);
  return KC_OK;
}

int kc_attention(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0); }
int kc_attention_causal(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1); }
