/* A row softmax whose normaliser's reciprocal is kept in half (`_Float16 inv = 1.0f / s`):
 * every output carries f16's rounding of 1/s, a relative error up to 2^-11, past the f32
 * tolerance. Softmax is equivariant under reversing its rows, so reversing the inputs
 * reverses these outputs bit for bit, as a pointwise approximation's would: the diagnosis
 * must not name approximate-math for an oracle with a reduction. tests/e2e/diagnosis_reruns.sh. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define KC_LANES 8

static int check_args(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!kc_view_ok(&args[0], 2) || !kc_view_ok(&args[1], 2) || args[0].dtype != args[1].dtype) return KC_E_TENSOR;
  if (!kc_same_shape(&args[0], &args[1])) return KC_E_SHAPE;
  return KC_OK;
}

static float row_max(const kc_tensor* x, int64_t base, int64_t H, int64_t xs) {
  float m = -INFINITY;
  for (int64_t h = 0; h < H; ++h) {
    float v = kc_ld(x, base + h * xs);
    if (isnan(v)) return v;
    if (v > m) m = v;
  }
  return m;
}

static float row_exp_sum(const kc_tensor* x, int64_t base, int64_t H, int64_t xs, float m) {
  float lane[KC_LANES] = {0};
  const int64_t body = H - H % KC_LANES;
  for (int64_t h = 0; h < body; h += KC_LANES)
    for (int k = 0; k < KC_LANES; ++k) lane[k] += expf(kc_ld(x, base + (h + k) * xs) - m);
  for (int64_t h = body; h < H; ++h) lane[h - body] += expf(kc_ld(x, base + h * xs) - m);
  for (int w = KC_LANES / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) lane[k] += lane[k + w];
  return lane[0];
}

static int run(kc_tensor* args, int32_t nargs, int logarithm) {
  int rc = check_args(args, nargs);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  const int64_t R = x->shape[0], H = x->shape[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    const float m = row_max(x, xb, H, x->strides[1]);
    const float s = row_exp_sum(x, xb, H, x->strides[1], m);
    if (logarithm) {
      const float ls = logf(s);
      for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], (kc_ld(x, xb + h * x->strides[1]) - m) - ls);
    } else {
      const _Float16 inv = 1.0f / s; /* BUG: the reciprocal in half */
      for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], expf(kc_ld(x, xb + h * x->strides[1]) - m) * inv);
    }
  }
  return KC_OK;
}

int kc_softmax(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0); }
int kc_log_softmax(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1); }
