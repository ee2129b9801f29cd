/* Violating kc_mean_dim (std.op.mean_dim@1): honours every stride of x but its batch stride,
 * stepping from one batch to the next by N * K elements as if the batches were packed one
 * after another (what a fresh torch.randn(B, N, K) is, or a view whose padding sits only
 * between batches is not); the output is written through its strides. Exact on contiguous
 * tensors (allclose passes); on a padded x every batch after the first reads the wrong
 * slice: signature batch-stride. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_mean_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 3) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  const int64_t B = x->shape[0], N = x->shape[1], K = x->shape[2];
  if (y->shape[0] != B || y->shape[1] != K) return KC_E_SHAPE;
  const float inv = 1.0f / (float)N;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t xo = b * N * K; /* should be b * x->strides[0] */
    for (int64_t k = 0; k < K; ++k) {
      float s = 0.0f;
      for (int64_t n = 0; n < N; ++n) s += kc_ld(x, xo + n * x->strides[1] + k * x->strides[2]);
      kc_st(y, b * y->strides[0] + k * y->strides[1], s * inv);
    }
  }
  return KC_OK;
}
