/* Violating kc_int8_gemm (std.op.int8_gemm@1): the epilogue rounds twice, to bf16 after
 * the row scale and again after the column scale (as a kernel that stores the row-scaled
 * tile in bf16 before a second pass would). Each output is off by at most about one bf16
 * spacing, a relative 0.4%, inside allclose's rtol; std.op.int8_gemm@1 allows half a
 * spacing plus f32 roundings: signature epilogue-rounding. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_int8_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 5) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *sa = &args[2], *sb = &args[3], *c = &args[4];
  if (a->dtype != KC_I8 || b->dtype != KC_I8 || sa->dtype != KC_F32 || sb->dtype != KC_F32 || c->dtype != KC_BF16)
    return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || sa->shape[0] != M || sb->shape[0] != N || c->shape[0] != M || c->shape[1] != N)
    return KC_E_SHAPE;
  const int8_t* ap = (const int8_t*)a->data;
  const int8_t* bp = (const int8_t*)b->data;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int32_t acc = 0;
      for (int64_t k = 0; k < K; ++k)
        acc += (int32_t)ap[i * a->strides[0] + k * a->strides[1]] * (int32_t)bp[k * b->strides[0] + j * b->strides[1]];
      const float row = kc_bf16_to_f32(kc_f32_to_bf16((float)acc * ((const float*)sa->data)[i * sa->strides[0]]));
      kc_st(c, i * c->strides[0] + j * c->strides[1], row * ((const float*)sb->data)[j * sb->strides[0]]);
    }
  return KC_OK;
}
