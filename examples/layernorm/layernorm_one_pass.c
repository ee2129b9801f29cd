/* acme_layernorm on the host: a DELIBERATELY BUGGY kernel (see examples/kernels.md).
 *
 * One-pass statistics in f32: sum(x) and sum(x^2) in a single sweep, then
 * var = E[x^2] - mean^2. On normal(0, 1) rows both terms are O(1) and the result agrees
 * with a float64 reference to within allclose's tolerance. On a row with a large mean
 * (normal(1000, 1): E[x^2] ~ 1e6, mean^2 ~ 1e6, their difference ~ 1) the f32 rounding
 * of each term is far larger than the difference, so var is noise -- often negative, and
 * then sqrtf gives NaN. The contract's normal(1000, 1) and normal(-1000, 10) rows catch
 * it; its `one-pass-variance` signature names it (fails only when some row has
 * |mean| > 100 sd). Interface and validation are those of layernorm.c. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_PRE = 4 };

static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

int kc_acme_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* xt = &args[0];
  const kc_tensor* et = &args[1];
  const kc_tensor* yt = &args[2];
  if (!view2d_ok(xt) || !view2d_ok(yt)) return KC_E_TENSOR;
  if (et->dtype != KC_F32 || et->rank != 0 || et->data == NULL) return KC_E_TENSOR;
  const int64_t R = xt->shape[0], H = xt->shape[1];
  if (yt->shape[0] != R || yt->shape[1] != H) return KC_E_SHAPE;
  const float eps = *(const float*)et->data;
  if (!(eps >= 0.0f)) return KC_E_PRE;
  if (R == 0 || H == 0) return KC_OK;

  const float* x = (const float*)xt->data;
  float* y = (float*)yt->data;
  const int64_t xr = xt->strides[0], xh = xt->strides[1];
  const int64_t yr = yt->strides[0], yh = yt->strides[1];

  for (int64_t r = 0; r < R; ++r) {
    const float* xrow = x + r * xr;
    float* yrow = y + r * yr;
    float s = 0.0f, q = 0.0f;
    for (int64_t h = 0; h < H; ++h) {
      const float v = xrow[h * xh];
      s += v;
      q += v * v;
    }
    const float mean = s / (float)H;
    /* BUG: E[x^2] - mean^2 in f32 cancels catastrophically when |mean| >> sd. */
    const float var = q / (float)H - mean * mean;
    const float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) yrow[h * yh] = (xrow[h * xh] - mean) * rstd;
  }
  return KC_OK;
}
