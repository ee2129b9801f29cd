/* The strided elementwise loop of the violating elementwise kernels here: y = f(x, p) over
 * every cell with each view's strides honoured, p the op's f32 scalar input (slope, alpha)
 * when it has one. Each kernel's bug is in its own f. */
#ifndef KC_CAL_ELEMENTWISE_MAP_H
#define KC_CAL_ELEMENTWISE_MAP_H
#include "../../../stdlib/ops/kernels/kc_host.h"

typedef float (*kc_cal_fn)(float x, float p);

/* args: x, then `scalars` (0 or 1) rank-0 inputs, then y. */
static int kc_cal_map(kc_tensor* args, int32_t nargs, int32_t scalars, kc_cal_fn f) {
  if (args == NULL || nargs != 2 + scalars) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1 + scalars];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float p = scalars ? kc_scalar(&args[1]) : 0.0f;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c)
      kc_st(y, r * y->strides[0] + c * y->strides[1], f(kc_ld(x, r * x->strides[0] + c * x->strides[1]), p));
  return KC_OK;
}
#endif
