/* Layer and RMS normalisation of the standard library on the host
 * (stdlib/ops/{layernorm,rmsnorm}.kcontract): conforming reference kernels.
 *
 *   kc_layernorm(x: T[R, H], eps: f32 -> y: T[R, H]), kc_rmsnorm(x, eps -> y)   T in f32, bf16
 *   kc_layernorm_affine(x, weight: T[H], bias: T[H], eps -> y), kc_rmsnorm_affine(x, weight, eps -> y)
 *
 * Statistics in f32, per row. layernorm: Welford's update in 8 lanes (element h to lane
 * h % 8), the lanes merged pairwise with Chan's formula, so a large mean never cancels;
 * then y = (x - mean) * rsqrt(var + eps). rmsnorm: the sum of squares in 8 lanes, then
 * y = x * (1 / sqrtf(ms + eps)). */
#include "kc_host.h"

#define KC_LANES 8

static int check_args(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  if (!kc_view_ok(&args[0], 2) || !kc_view_ok(&args[1], 0) || !kc_view_ok(&args[2], 2)) return KC_E_TENSOR;
  if (args[0].dtype != args[2].dtype || args[1].dtype != KC_F32) return KC_E_TENSOR;
  if (!kc_same_shape(&args[0], &args[2])) return KC_E_SHAPE;
  return KC_OK;
}

/* x (args[0]) and y (args[nargs - 1]) as check_args asks, eps at args[nargs - 2], and
 * nparams rank-1 parameters of x's dtype and row length at args[1..nparams]. */
static int check_affine(kc_tensor* args, int32_t nargs, int nparams) {
  if (args == NULL || nargs != nparams + 3) return KC_E_NARGS;
  kc_tensor outer[3] = {args[0], args[nargs - 2], args[nargs - 1]};
  int rc = check_args(outer, 3);
  if (rc) return rc;
  for (int a = 1; a <= nparams; ++a) {
    if (!kc_view_ok(&args[a], 1) || args[a].dtype != args[0].dtype) return KC_E_TENSOR;
    if (args[a].shape[0] != args[0].shape[1]) return KC_E_SHAPE;
  }
  return KC_OK;
}

/* Row-wise layer normalisation, y = (x - mean) * (rsqrt(var + eps) * w[h]) + b[h]; w and b
 * NULL for 1 and 0. */
static void layernorm_rows(const kc_tensor* x, const kc_tensor* w, const kc_tensor* b, const kc_tensor* y, float eps);

int kc_layernorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs);
  if (rc) return rc;
  layernorm_rows(&args[0], NULL, NULL, &args[2], kc_scalar(&args[1]));
  return KC_OK;
}

int kc_layernorm_affine(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_affine(args, nargs, 2);
  if (rc) return rc;
  layernorm_rows(&args[0], &args[1], &args[2], &args[4], kc_scalar(&args[3]));
  return KC_OK;
}

static void layernorm_rows(const kc_tensor* x, const kc_tensor* w, const kc_tensor* b, const kc_tensor* y, float eps) {
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float n[KC_LANES] = {0}, mean[KC_LANES] = {0}, m2[KC_LANES] = {0};
    for (int64_t h = 0; h < H; ++h) {
      const int k = (int)(h % KC_LANES);
      const float v = kc_ld(x, xb + h * xs);
      n[k] += 1.0f;
      const float d = v - mean[k];
      mean[k] += d / n[k];
      m2[k] += d * (v - mean[k]);
    }
    for (int span = KC_LANES / 2; span >= 1; span /= 2)
      for (int k = 0; k < span; ++k) {
        const float nb = n[k + span];
        if (nb == 0.0f) continue;
        const float na = n[k], nn = na + nb, d = mean[k + span] - mean[k];
        mean[k] += d * (nb / nn);
        m2[k] += m2[k + span] + d * d * (na * nb / nn);
        n[k] = nn;
      }
    const float var = m2[0] / (float)H;
    const float inv = 1.0f / sqrtf(var + eps);
    for (int64_t h = 0; h < H; ++h) {
      const float a = w ? inv * kc_ld(w, h * w->strides[0]) : inv;
      const float v = (kc_ld(x, xb + h * xs) - mean[0]) * a;
      kc_st(y, yb + h * ys, b ? v + kc_ld(b, h * b->strides[0]) : v);
    }
  }
}

/* Row-wise RMS normalisation, y = x * (1 / sqrtf(ms + eps)) * w[h]; w NULL for 1. */
static void rmsnorm_rows(const kc_tensor* x, const kc_tensor* w, const kc_tensor* y, float eps);

int kc_rmsnorm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs);
  if (rc) return rc;
  rmsnorm_rows(&args[0], NULL, &args[2], kc_scalar(&args[1]));
  return KC_OK;
}

int kc_rmsnorm_affine(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_affine(args, nargs, 1);
  if (rc) return rc;
  rmsnorm_rows(&args[0], &args[1], &args[3], kc_scalar(&args[2]));
  return KC_OK;
}

static void rmsnorm_rows(const kc_tensor* x, const kc_tensor* w, const kc_tensor* y, float eps) {
  const int64_t R = x->shape[0], H = x->shape[1], xs = x->strides[1], ys = y->strides[1];
  const int64_t body = H - H % KC_LANES;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    float lane[KC_LANES] = {0};
    for (int64_t h = 0; h < body; h += KC_LANES)
      for (int k = 0; k < KC_LANES; ++k) {
        const float v = kc_ld(x, xb + (h + k) * xs);
        lane[k] += v * v;
      }
    for (int64_t h = body; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs);
      lane[h - body] += v * v;
    }
    for (int w = KC_LANES / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) lane[k] += lane[k + w];
    const float inv = 1.0f / sqrtf(lane[0] / (float)H + eps);
    for (int64_t h = 0; h < H; ++h) {
      const float v = kc_ld(x, xb + h * xs) * inv;
      kc_st(y, yb + h * ys, w ? v * kc_ld(w, h * w->strides[0]) : v);
    }
  }
}

/* The vector norms (stdlib/ops/{l1_norm,l2_norm,frobenius_norm}.kcontract):
 *   kc_l1_norm(x: T[R, H] -> y: T[R, H])          y = x / (sum |x| / H), per row
 *   kc_l2_norm(x -> y)                             y = x / sqrt(sum x^2), per row
 *   kc_frobenius_norm(x: T[N] -> y: T[N])         y = x / sqrt(sum of every x^2)
 * Row sums in f32, 8 lanes (element h to lane h % 8), merged pairwise; the Frobenius norm's
 * as a binary tree. */

static int check_xy(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!kc_view_ok(&args[0], 2) || !kc_view_ok(&args[1], 2)) return KC_E_TENSOR;
  if (args[0].dtype != args[1].dtype) return KC_E_TENSOR;
  if (!kc_same_shape(&args[0], &args[1])) return KC_E_SHAPE;
  return KC_OK;
}

/* Row r's sum of |x| (square = 0) or of x^2 (square = 1), in 8 f32 lanes. */
static float row_sum(const kc_tensor* x, int64_t r, int square) {
  const int64_t H = x->shape[1], xs = x->strides[1], xb = r * x->strides[0];
  float lane[KC_LANES] = {0};
  for (int64_t h = 0; h < H; ++h) {
    const float v = kc_ld(x, xb + h * xs);
    lane[h % KC_LANES] += square ? v * v : fabsf(v);
  }
  for (int w = KC_LANES / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) lane[k] += lane[k + w];
  return lane[0];
}

static void scale_row(const kc_tensor* x, const kc_tensor* y, int64_t r, float inv) {
  const int64_t H = x->shape[1], xb = r * x->strides[0], yb = r * y->strides[0];
  for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], kc_ld(x, xb + h * x->strides[1]) * inv);
}

int kc_l1_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_xy(args, nargs);
  if (rc) return rc;
  for (int64_t r = 0; r < args[0].shape[0]; ++r)
    scale_row(&args[0], &args[1], r, 1.0f / (row_sum(&args[0], r, 0) / (float)args[0].shape[1]));
  return KC_OK;
}

int kc_l2_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_xy(args, nargs);
  if (rc) return rc;
  for (int64_t r = 0; r < args[0].shape[0]; ++r) scale_row(&args[0], &args[1], r, 1.0f / sqrtf(row_sum(&args[0], r, 1)));
  return KC_OK;
}

/* The squares of cells lo..hi-1 as a binary tree (64 cells at a leaf): a running f32 sum
 * over a billion cells would stall once each square is below half its spacing. */
static float squares_sum(const kc_tensor* x, int64_t lo, int64_t hi) {
  if (hi - lo <= 64) {
    float s = 0.0f;
    for (int64_t i = lo; i < hi; ++i) {
      const float v = kc_ld(x, i * x->strides[0]);
      s += v * v;
    }
    return s;
  }
  const int64_t mid = lo + (hi - lo) / 2;
  return squares_sum(x, lo, mid) + squares_sum(x, mid, hi);
}

int kc_frobenius_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 1) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t N = x->shape[0];
  const float inv = 1.0f / sqrtf(squares_sum(x, 0, N));
  for (int64_t i = 0; i < N; ++i) kc_st(y, i * y->strides[0], kc_ld(x, i * x->strides[0]) * inv);
  return KC_OK;
}
