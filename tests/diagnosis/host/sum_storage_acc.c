/* Diagnosis corpus, BUGGY (low-precision-accumulator): a row sum written once for every
 * storage type, with its 8 lane accumulators in the storage type itself (the C port of a
 * template `T acc[8]`): exact for f32 tensors, but for bf16 and f16 each lane rounds to 8 or
 * 11 bits at every add. Supports bf16 and f16 (at f32 it is the twin). Twin: sum_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

/* acc + v rounded to the storage dtype of t (the lane "is a T") */
static inline float add_in(const kc_tensor* t, float acc, float v) {
  const float s = acc + v;
  if (t->dtype == KC_BF16) return kc_bf16_to_f32(kc_f32_to_bf16(s));
  if (t->dtype == KC_F16) return (float)(_Float16)s;
  return s;
}

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1];
  const int64_t body = H - H % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0];
    float acc[W] = {0}; /* BUG: each lane is kept in T */
    for (int64_t h = 0; h < body; h += W)
      for (int k = 0; k < W; ++k) acc[k] = add_in(x, acc[k], kc_ld(x, xb + (h + k) * xs));
    for (int64_t h = body; h < H; ++h) acc[h - body] = add_in(x, acc[h - body], kc_ld(x, xb + h * xs));
    for (int w = W / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) acc[k] = add_in(x, acc[k], acc[k + w]);
    kc_st(y, r * y->strides[0], acc[0]);
  }
  return KC_OK;
}
