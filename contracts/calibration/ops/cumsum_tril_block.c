/* Violating kc_cumsum (std.op.cumsum@3, through std.exc.nan-propagation@2): a chunked scan
 * whose in-chunk prefix sums are a product with the lower-triangular ones matrix, as a GPU
 * scan does it on tensor cores (or a chunked state-space scan does it with tril(ones)):
 * y_chunk = L x_chunk, with L[h][k] = (k <= h). The masked terms are 0 * x[k], and
 * 0 * NaN is NaN, so a NaN at k reaches the cells before it in its chunk, which do not
 * depend on it. The sums themselves are right, in f32, so allclose on randn passes. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define CHUNK 64

int kc_cumsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  for (int64_t r = 0; r < R; ++r) {
    float offset = 0.0f;
    for (int64_t c0 = 0; c0 < H; c0 += CHUNK) {
      const int64_t n = H - c0 < CHUNK ? H - c0 : CHUNK;
      float last = 0.0f;
      for (int64_t h = 0; h < n; ++h) {
        float acc = 0.0f;
        for (int64_t k = 0; k < n; ++k) {
          const float mask = k <= h ? 1.0f : 0.0f;
          acc += mask * kc_ld(x, r * x->strides[0] + (c0 + k) * x->strides[1]);
        }
        kc_st(y, r * y->strides[0] + (c0 + h) * y->strides[1], offset + acc);
        last = acc;
      }
      offset += last;
    }
  }
  return KC_OK;
}
