/* Violating kc_attention_heads (std.op.attention_heads@1): honours the row and column strides
 * of each [S, D] and [L, D] slice but steps from one (batch, head) slice to the next by S * D
 * and L * D elements, as if q, k, v and o were packed (what a fresh torch.randn(B, H, S, D)
 * is, and what a kernel that flattens B * H into one grid dimension assumes). Exact on
 * contiguous tensors (allclose passes); on padded, offset or transposed views (a [B, S, H, D]
 * projection seen through transpose(1, 2)) every slice after the first reads and writes the
 * wrong cells: signature head-stride. */
#include <stdlib.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_attention_heads(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!kc_view_ok(q, 4) || !kc_view_ok(k, 4) || !kc_view_ok(v, 4) || !kc_view_ok(o, 4)) return KC_E_TENSOR;
  if (q->dtype != o->dtype || k->dtype != o->dtype || v->dtype != o->dtype) return KC_E_TENSOR;
  const int64_t B = q->shape[0], H = q->shape[1], S = q->shape[2], D = q->shape[3], L = k->shape[2];
  if (k->shape[0] != B || k->shape[1] != H || k->shape[3] != D || !kc_same_shape(k, v) || !kc_same_shape(q, o)) return KC_E_SHAPE;
  float* acc = (float*)malloc(sizeof(float) * (size_t)(D > 0 ? D : 1));
  if (acc == NULL) return KC_E_SHAPE;
  const float scale = 1.0f / sqrtf((float)D);
  for (int64_t bh = 0; bh < B * H; ++bh) {
    const int64_t qb = bh * S * D, kb = bh * L * D; /* packed slices assumed */
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
        for (int64_t d = 0; d < D; ++d) acc[d] = acc[d] * corr + p * kc_ld(v, kb + j * v->strides[2] + d * v->strides[3]);
        m = mn;
      }
      for (int64_t d = 0; d < D; ++d) kc_st(o, qb + i * o->strides[2] + d * o->strides[3], acc[d] / z);
    }
  }
  free(acc);
  return KC_OK;
}
