/* Violating kc_gather (std.op.gather@1): a gather written for int32 indices (the index type
 * many CUDA kernels template on, and what a test built with torch.int32 indices feeds it),
 * whatever the index tensor's dtype. At I = i32 it is correct, bounds check included, so a
 * plain allclose at the contract's first index dtype passes; torch's default index dtype is
 * int64, and there each 8-byte index is read as two 4-byte ones: the element at 4-byte offset
 * o is the low half of index o / 2 when o is even, its high half (0 for an index in range)
 * when o is odd, so most cells copy the wrong column: signature index-read-as-i32. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_gather(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *idx = &args[1], *out = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(out, 2) || x->dtype != out->dtype) return KC_E_TENSOR;
  if ((idx->dtype != KC_I32 && idx->dtype != KC_I64) || idx->rank != 2) return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1], K = idx->shape[1];
  if (idx->shape[0] != R || out->shape[0] != R || out->shape[1] != K) return KC_E_SHAPE;
  const int32_t* ip = (const int32_t*)idx->data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int32_t c = ip[r * idx->strides[0] + k * idx->strides[1]];
      if (c < 0 || c >= C) return KC_E_INDEX;
    }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t k = 0; k < K; ++k) {
      const int32_t c = ip[r * idx->strides[0] + k * idx->strides[1]];
      kc_st(out, r * out->strides[0] + k * out->strides[1], kc_ld(x, r * x->strides[0] + (int64_t)c * x->strides[1]));
    }
  return KC_OK;
}
