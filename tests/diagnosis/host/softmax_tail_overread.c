/* Diagnosis corpus, BUGGY (tail-over-read): an 8-wide softmax whose author masked the
 * store of the last partial vector (to not write past the row) but not the loads of the max
 * and sum passes: they read whole vectors, so for H % 8 != 0 they read up to 7 elements past
 * the end of the row (the next row, padding, or past the view). Twin: softmax_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float vm[W];
    for (int k = 0; k < W; ++k) vm[k] = -INFINITY;
    for (int64_t h = 0; h < H; h += W) /* BUG: whole vectors, the last one unmasked */
      for (int k = 0; k < W; ++k) {
        const float v = kc_ld(x, xb + (h + k) * xs);
        if (v > vm[k] || isnan(v)) vm[k] = v;
      }
    float m = vm[0];
    for (int k = 1; k < W; ++k)
      if (vm[k] > m || isnan(vm[k])) m = vm[k];
    float vs[W] = {0};
    for (int64_t h = 0; h < H; h += W) /* BUG: same */
      for (int k = 0; k < W; ++k) vs[k] += expf(kc_ld(x, xb + (h + k) * xs) - m);
    float s = 0.0f;
    for (int k = 0; k < W; ++k) s += vs[k];
    const float inv = 1.0f / s;
    for (int64_t h = 0; h < H; h += W)
      for (int k = 0; k < W && h + k < H; ++k) /* the store is masked */
        kc_st(y, yb + (h + k) * ys, expf(kc_ld(x, xb + (h + k) * xs) - m) * inv);
  }
  return KC_OK;
}
