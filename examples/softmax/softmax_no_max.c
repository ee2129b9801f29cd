/* acme_softmax on the host: a DELIBERATELY BUGGY kernel (see examples/kernels.md).
 *
 * The structure of softmax.c (a double row sum, one division per cell, rounded once to f32)
 * but it skips the row-maximum subtraction and takes the exponentials in f32, expf(x), as a
 * GPU kernel's __expf would. Mathematically the same function, and on normal(0, 1) inputs it
 * agrees with a float64 reference to an ulp or so, so torch.allclose passes. But expf
 * overflows to +Inf for x > 88.72: the row sum is then +Inf and every cell of the row is
 * Inf/Inf = NaN (or finite/Inf = 0). The contract's uniform(90, 120) inputs make every cell
 * NaN; its `overflow` signature names the failure (fails only when max(x) > 88, NaN where
 * the oracle is finite). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3 };

static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
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
    /* BUG: no row maximum; expf(x) overflows for x > 88.72. */
    double s = 0.0;
    for (int64_t h = 0; h < H; ++h) s += (double)expf(xrow[h * xh]);
    for (int64_t h = 0; h < H; ++h) yrow[h * yh] = (float)((double)expf(xrow[h * xh]) / s);
  }
  return KC_OK;
}
