/* Diagnosis corpus, BUGGY (ignores-strides): ReLU written as "elementwise, so treat it as
 * one flat array of R * C": element i is read at x[i] and written at y[i], right for
 * contiguous tensors only. Twin: relu_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

static inline float f(float v) {
  return (v > 0.0f || isnan(v)) ? v : 0.0f;
}

int kc_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  const int64_t body = C - C % W;
  (void)xs, (void)ys, (void)body;
  const int64_t n = R * C; /* BUG: one flat, dense array */
  const int64_t nb = n - n % W;
  for (int64_t i = 0; i < nb; i += W) {
    float v[W];
    for (int k = 0; k < W; ++k) v[k] = kc_ld(x, i + k);
    for (int k = 0; k < W; ++k) kc_st(y, i + k, f(v[k]));
  }
  for (int64_t i = nb; i < n; ++i) kc_st(y, i, f(kc_ld(x, i)));
  return KC_OK;
}
