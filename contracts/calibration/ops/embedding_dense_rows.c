/* Violating kc_embedding (std.op.embedding@1): finds row `idx[n]` of the table at
 * idx[n] * D elements, as if the table were packed row after row (what nn.Embedding's own
 * weight is), and writes the output the same way. Exact on contiguous tensors (allclose
 * passes); on a padded or offset table, or a strided output, it copies the wrong cells:
 * std.mem.strides@1, signature ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

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
    memcpy((char*)out->data + (size_t)(n * D) * eb, (const char*)table->data + (size_t)(row * D) * eb, (size_t)D * eb);
  }
  return KC_OK;
}
