/* acme_softmax with an unwritten tail, for the checker's own end-to-end tests.
 *
 * The code of examples/softmax/softmax.c, except that the output pass is split into whole
 * tiles of 32 columns and a tail loop, and the tail loop stops one column short: when
 * H % 32 != 0 the last column of y is never written (it keeps whatever the checker put
 * there). Every written cell is correct. With H % 32 == 0 the kernel is correct. The
 * checker should report the unwritten cells (std.mem.tail-mask@1, dims H in
 * boundary(tiles: 32, ...)). */
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
    const int64_t full = H - H % 32;
    for (int64_t h = 0; h < full; ++h)
      yrow[h * yh] = (float)(exp((double)xrow[h * xh] - m) / s);
    /* BUG: the tail loop stops one short; y[r, H - 1] is never written when H % 32 != 0. */
    for (int64_t h = full; h + 1 < H; ++h)
      yrow[h * yh] = (float)(exp((double)xrow[h * xh] - m) / s);
  }
  return KC_OK;
}
