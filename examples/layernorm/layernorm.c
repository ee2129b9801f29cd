/* acme_layernorm on the host: the correct kernel (examples/layernorm/layernorm.kcontract).
 *
 *   kc_acme_layernorm(x: f32[R, H], eps: f32) -> (y: f32[R, H])
 *   y[r, h] = (x[r, h] - mu[r]) / sqrt(var[r] + eps),  mu and var the row's mean and
 *   (biased, divide-by-H) variance
 *
 * Two-pass statistics in double: the mean first, then the mean of squared deviations from
 * it. An f32 accumulator would also meet the contract's tolerance (it allows a mean error of
 * gamma(H, f32) times the mean magnitude, divided by the standard deviation), but that is
 * loose on rows with a large mean -- normal(1000, 1), H = 4096 allows an absolute error of
 * about 0.5 in y -- and double costs nothing on the host; y then comes out within about
 * half an f32 ulp of the exact value. A NaN in a row makes every cell of that row NaN.
 *
 * eps is a rank-0 f32 tensor (a host pointer to one float). Only f32 is supported; anything
 * else (dtype, rank, nargs, y's shape not x's, a negative or NaN eps) returns nonzero
 * without touching memory. Strides may be anything positive. */
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
    double s = 0.0;
    for (int64_t h = 0; h < H; ++h) s += (double)xrow[h * xh];
    const double mean = s / (double)H;
    double q = 0.0;
    for (int64_t h = 0; h < H; ++h) {
      const double d = (double)xrow[h * xh] - mean;
      q += d * d;
    }
    const double sd = sqrt(q / (double)H + (double)eps);
    for (int64_t h = 0; h < H; ++h) yrow[h * yh] = (float)(((double)xrow[h * xh] - mean) / sd);
  }
  return KC_OK;
}
