/* Embedding lookup of the standard library on the host (stdlib/ops/embedding.kcontract):
 * the conforming reference kernel.
 *
 *   kc_embedding(table: T[V, D], idx: I[N] -> out: T[N, D])   T in f32, bf16, f16; I in i32, i64
 *
 * Row by row: read the index (64-bit arithmetic for the row offset, so a table past 2^31
 * elements is addressed correctly), check it (an index outside 0..V - 1 makes the kernel
 * return an error before anything is written), copy the row's bits. */
#include "kc_host.h"

int kc_embedding(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *table = &args[0], *idx = &args[1], *out = &args[2];
  if (!kc_view_ok(table, 2) || !kc_view_ok(out, 2) || table->dtype != out->dtype) return KC_E_TENSOR;
  if ((idx->dtype != KC_I32 && idx->dtype != KC_I64) || idx->rank != 1) return KC_E_TENSOR;
  const int64_t V = table->shape[0], D = table->shape[1], N = idx->shape[0];
  if (out->shape[0] != N || out->shape[1] != D) return KC_E_SHAPE;
  const size_t eb = table->dtype == KC_F32 ? 4 : 2;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t off = n * idx->strides[0];
    const int64_t row = idx->dtype == KC_I32 ? ((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
    if (row < 0 || row >= V) return KC_E_INDEX;
  }
  for (int64_t n = 0; n < N; ++n) {
    const int64_t off = n * idx->strides[0];
    const int64_t row = idx->dtype == KC_I32 ? ((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
    for (int64_t d = 0; d < D; ++d)
      memcpy((char*)out->data + (size_t)(n * out->strides[0] + d * out->strides[1]) * eb,
             (const char*)table->data + (size_t)(row * table->strides[0] + d * table->strides[1]) * eb, eb);
  }
  return KC_OK;
}
