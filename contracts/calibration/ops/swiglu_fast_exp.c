/* Violating kc_swiglu (std.op.swiglu@1): a vectorised CPU kernel with a hand-written exp for
 * the sigmoid, as SIMD code without a vector libm writes it: e^x = 2^n 2^f with
 * x log2(e) = n + f, n an integer and 0 <= f < 1, and 2^f a cubic in f. The cubic is off
 * by up to 1.5e-4 of 2^f, so silu(a) and y are off by up to about 1e-4 of themselves: far
 * inside allclose's 1e-2, a hundred f32 roundings outside the contract's bound, on every
 * gate away from 0 (std.cc.approximation@1: approximate-math). */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define KC_BLOCK 8

static float fast_exp(float x) {
  const float t = x * 1.44269504088896341f; /* log2(e) */
  if (t > 128.0f) return INFINITY;
  if (t < -126.0f) return 0.0f;
  const float n = floorf(t), f = t - n;
  const float p = 1.0f + f * (0.6960656421638072f + f * (0.224494337302845f + f * 0.07944023841053369f));
  return ldexpf(p, (int)n);
}

static float swiglu_f(float a, float b) { return a / (1.0f + fast_exp(-a)) * b; }

static int dense(const kc_tensor* t) {
  return (t->shape[1] <= 1 || t->strides[1] == 1) && (t->shape[0] <= 1 || t->strides[0] == t->shape[1]);
}

int kc_swiglu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *y = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (a->dtype != y->dtype || b->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, y) || !kc_same_shape(b, y)) return KC_E_SHAPE;
  const int64_t R = y->shape[0], H = y->shape[1];
  if (y->dtype == KC_F32 && dense(a) && dense(b) && dense(y)) {
    const float *ap = (const float*)a->data, *bp = (const float*)b->data;
    float* yp = (float*)y->data;
    const int64_t n = R * H, body = n - n % KC_BLOCK;
    for (int64_t i = 0; i < body; i += KC_BLOCK)
      for (int k = 0; k < KC_BLOCK; ++k) yp[i + k] = swiglu_f(ap[i + k], bp[i + k]);
    for (int64_t i = body; i < n; ++i) yp[i] = swiglu_f(ap[i], bp[i]);
    return KC_OK;
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t j = 0; j < H; ++j)
      kc_st(y, r * y->strides[0] + j * y->strides[1],
            swiglu_f(kc_ld(a, r * a->strides[0] + j * a->strides[1]), kc_ld(b, r * b->strides[0] + j * b->strides[1])));
  return KC_OK;
}
