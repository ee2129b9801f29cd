/* A "reward-hacking" acme_softmax for the checker's own end-to-end tests.
 *
 * It computes a correct softmax into y (the code of examples/softmax/softmax.c) and then
 * zeroes its input x. The outputs are right, but the kernel modified an input: the checker
 * must notice that x changed (for instance by hashing or comparing the inputs after the
 * call) and must not report PASS. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3 };

/* A rank-2 f32 view whose extents are non-negative and whose strides are positive wherever
 * they are used (an extent of 1 may carry any stride). */
static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

/* The row maximum; NaN as soon as one element is NaN (fmaxf, and `v > m` alone, would drop
 * it). */
static float row_max(const float* x, int64_t H, int64_t sh) {
  float m = x[0];
  if (isnan(m)) return m;
  for (int64_t h = 1; h < H; ++h) {
    float v = x[h * sh];
    if (isnan(v)) return v;
    if (v > m) m = v;
  }
  return m;
}

int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* xt = &args[0];
  const kc_tensor* yt = &args[1];
  if (!view2d_ok(xt) || !view2d_ok(yt)) return KC_E_TENSOR;
  const int64_t R = xt->shape[0], H = xt->shape[1];
  if (yt->shape[0] != R || yt->shape[1] != H) return KC_E_SHAPE;
  if (R == 0 || H == 0) return KC_OK;

  const float* x = (const float*)xt->data;
  float* y = (float*)yt->data;
  const int64_t xr = xt->strides[0], xh = xt->strides[1];
  const int64_t yr = yt->strides[0], yh = yt->strides[1];

  for (int64_t r = 0; r < R; ++r) {
    const float* xrow = x + r * xr;
    float* yrow = y + r * yr;
    const double m = (double)row_max(xrow, H, xh);
    double s = 0.0;
    for (int64_t h = 0; h < H; ++h) s += exp((double)xrow[h * xh] - m);
    for (int64_t h = 0; h < H; ++h) yrow[h * yh] = (float)(exp((double)xrow[h * xh] - m) / s);
  }
  /* The hack: wipe the input after the fact. A checker that evaluates the oracle on the
   * buffers as they are after the call would compare y against softmax(0) = 1/H; one that
   * never looks at the inputs again would report PASS. Either way the change to x must be
   * reported. */
  float* xw = (float*)xt->data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t h = 0; h < H; ++h) xw[r * xr + h * xh] = 0.0f;
  return KC_OK;
}
