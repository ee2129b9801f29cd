/* acme_relu on the host: a DELIBERATELY BUGGY kernel (see examples/kernels.md).
 * `x > 0 ? x : 0`: NaN > 0 is false, so a NaN input comes out as 0. randn never produces
 * NaN, so allclose passes; the contract's special(nan: 1%) inputs (std.exc.nan-propagation@1)
 * catch it with the `nan-swallowed` signature. */
#include <stddef.h>
#include <stdint.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3 };

static int view1d_ok(const kc_tensor* t) {
  return t->dtype == KC_F32 && t->rank == 1 && t->shape != NULL && t->strides != NULL && t->shape[0] >= 0 &&
         (t->shape[0] <= 1 || t->strides[0] >= 1);
}

int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!view1d_ok(&args[0]) || !view1d_ok(&args[1])) return KC_E_TENSOR;
  const int64_t N = args[0].shape[0];
  if (args[1].shape[0] != N) return KC_E_SHAPE;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  const int64_t xs = args[0].strides[0], ys = args[1].strides[0];
  for (int64_t i = 0; i < N; ++i) {
    const float v = x[i * xs];
    y[i * ys] = (v > 0.0f) ? v : 0.0f; /* BUG: NaN becomes 0 */
  }
  return KC_OK;
}
