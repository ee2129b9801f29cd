/* Diagnosis corpus, CONFORMING twin of the mean_*.c kernels: a row mean, the sum unrolled
 * by 4 into 4 f32 partial sums with a remainder loop, then multiplied by 1 / H. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_mean(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1];
  const int64_t H4 = H - H % 4;
  const float inv = 1.0f / (float)H;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0];
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int64_t h = 0; h < H4; h += 4) {
      s0 += kc_ld(x, xb + h * xs);
      s1 += kc_ld(x, xb + (h + 1) * xs);
      s2 += kc_ld(x, xb + (h + 2) * xs);
      s3 += kc_ld(x, xb + (h + 3) * xs);
    }
    for (int64_t h = H4; h < H; ++h) s0 += kc_ld(x, xb + h * xs);
    kc_st(y, r * y->strides[0], ((s0 + s1) + (s2 + s3)) * inv);
  }
  return KC_OK;
}
