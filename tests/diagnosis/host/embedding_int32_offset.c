/* Diagnosis corpus, BUGGY (index-overflow): the chunked gather with the row offset computed
 * in int (`int off = row * stride`): right while the table has fewer than 2^31 elements,
 * wrong (a negative or wrapped offset) for a larger table, e.g. V = 2^20 rows of D = 4096.
 * Twin: embedding_chunked.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 4

static int64_t index_at(const kc_tensor* idx, int64_t n) {
  const int64_t off = n * idx->strides[0];
  return idx->dtype == KC_I32 ? (int64_t)((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
}

int kc_embedding(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *table = &args[0], *idx = &args[1], *out = &args[2];
  if (!kc_view_ok(table, 2) || !kc_view_ok(out, 2) || table->dtype != out->dtype) return KC_E_TENSOR;
  if ((idx->dtype != KC_I32 && idx->dtype != KC_I64) || idx->rank != 1) return KC_E_TENSOR;
  const int64_t V = table->shape[0], D = table->shape[1], N = idx->shape[0];
  if (out->shape[0] != N || out->shape[1] != D) return KC_E_SHAPE;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t row = index_at(idx, n);
    if (row < 0 || row >= V) return KC_E_INDEX;
  }
  const size_t eb = table->dtype == KC_F32 ? 4 : 2;
  const int64_t ts = table->strides[1], os = out->strides[1];
  const int64_t body = D - D % W;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t row = index_at(idx, n);
    const int off = (int)row * (int)table->strides[0]; /* BUG: 32-bit offset */
    const char* src = (const char*)table->data + (ptrdiff_t)off * (ptrdiff_t)eb;
    char* dst = (char*)out->data + (size_t)(n * out->strides[0]) * eb;
    for (int64_t d = 0; d < body; d += W)
      for (int k = 0; k < W; ++k) memcpy(dst + (size_t)((d + k) * os) * eb, src + (size_t)((d + k) * ts) * eb, eb);
    for (int64_t d = body; d < D; ++d) memcpy(dst + (size_t)(d * os) * eb, src + (size_t)(d * ts) * eb, eb);
  }
  return KC_OK;
}
