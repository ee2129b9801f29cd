/* Violating kc_embedding (std.op.embedding@2): the gather as it is usually first written,
 * out[n, :] = table[idx[n], :], with no check that idx[n] names a row. Every valid index
 * is copied bit for bit, so allclose (and std.op.embedding@1) pass; an index of V, -1 or
 * 2^40 reads memory outside the table and the kernel still returns 0, where torch.embedding
 * raises: std.iface.precondition-report@1, signature precondition-unreported. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_embedding(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *table = &args[0], *idx = &args[1], *out = &args[2];
  if (!kc_view_ok(table, 2) || !kc_view_ok(out, 2) || table->dtype != out->dtype) return KC_E_TENSOR;
  if ((idx->dtype != KC_I32 && idx->dtype != KC_I64) || idx->rank != 1) return KC_E_TENSOR;
  const int64_t D = table->shape[1], N = idx->shape[0];
  if (out->shape[0] != N || out->shape[1] != D) return KC_E_SHAPE;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t off = n * idx->strides[0];
    const int64_t row = idx->dtype == KC_I32 ? ((const int32_t*)idx->data)[off] : ((const int64_t*)idx->data)[off];
    for (int64_t d = 0; d < D; ++d) kc_st(out, n * out->strides[0] + d * out->strides[1], kc_ld(table, row * table->strides[0] + d * table->strides[1]));
  }
  return KC_OK;
}
