/* acme_softmax on the host: the correct kernel (examples/softmax/softmax.kcontract).
 *
 *   kc_acme_softmax(x: f32[R, H]) -> (y: f32[R, H])
 *   y[r, h] = exp(x[r, h] - m[r]) / sum over k of exp(x[r, k] - m[r]),  m[r] = max over h of x[r, h]
 *
 * Per row: the maximum (a NaN anywhere in the row makes it NaN, so the whole row comes out
 * NaN), then the exponentials and their sum, then one division per cell, rounded once to
 * f32. The exponentials are recomputed in the last pass rather than kept in y, so y is
 * written exactly once per cell and nothing outside the view is touched.
 *
 * The exponentials, the sum and the division are in double, which puts every cell within
 * about half an f32 ulp of the exact value. The f32 pipeline the contract's comment
 * describes, expf(x - m) with an f32 sum, does not always fit the contract's tolerance
 * ulp(T, y*) + (H + 4) eps(f32) y* when rows are short and wide (H = 4, uniform(-80, 80)):
 *  - x - m rounded in f32 is off by up to half an ulp of |x - m|, and exp turns that into a
 *    relative error of up to |x - m| eps/2 (about 30 eps at |x - m| = 60), and
 *  - a result below 2^-126 is rounded twice (expf to a subnormal, then the quotient), which
 *    can exceed the single ulp the tolerance allows there.
 * Double arithmetic has neither problem (x - m is exact in double).
 *
 * Only f32 is supported; anything else (dtype, rank, nargs, mismatched shapes) returns
 * nonzero without touching memory. Strides may be anything positive (transposed, padded). */
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
  return KC_OK;
}
