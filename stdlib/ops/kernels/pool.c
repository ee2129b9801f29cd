/* Pooling of the standard library on the host (stdlib/ops/{max,avg}_pool{1,2,3}d.kcontract):
 * conforming reference kernels, as torch.nn.functional.max_pool{1,2,3}d and avg_pool{1,2,3}d
 * with ceil_mode=False (and count_include_pad=True for the average).
 *
 *   kc_max_pool1d(x: T[N, C, L], kernel_size, stride, padding, dilation -> y: T[N, C, Lout])
 *   kc_max_pool2d, kc_max_pool3d: each hyperparameter per axis (kernel_size_h, kernel_size_w,
 *                 stride_h, ...), in that order
 *   kc_avg_pool1d(x, kernel_size, stride, padding -> y), kc_avg_pool2d, kc_avg_pool3d: no dilation
 *   T in f32, bf16, f16; the hyperparameters are i64 scalars.
 *
 * One generic kernel over R = 1..3 spatial axes: output cell y[n, c, t...] looks at the taps
 * t S + k D - P of its window. The maximum skips taps in the padding (-inf never wins) and
 * propagates NaN; the average sums the taps inside in f32 and divides by the whole window's
 * size (padded taps count as zeros). One rounding to T. Every tensor is read and written
 * through its strides.
 *
 * The calibration kernels (contracts/calibration/ops/*_pool*.c) define one of the seams below
 * and include this file, so that each differs from the reference in one place only. */
#include "kc_host.h"

/* The larger of the running maximum m and a tap v: NaN wins, the first of equals stays. */
#ifndef KC_POOL_MAX
#define KC_POOL_MAX(m, v) ((isnan(m) || (m) >= (v)) && !isnan(v) ? (m) : (v))
#endif

/* A tap of the maximum in the padding: skipped (return 0); a seam may return 1 with *v set. */
#ifndef KC_POOL_MAX_PADDED
#define KC_POOL_MAX_PADDED(v) 0
#endif

/* The dilation a tap uses on an axis. */
#ifndef KC_POOL_DILATION
#define KC_POOL_DILATION(d) (d)
#endif

/* The stride used on an axis with window k. */
#ifndef KC_POOL_STRIDE
#define KC_POOL_STRIDE(s, k) (s)
#endif

/* The average's divisor: the window's size (`window`), or the taps inside (`inside`). */
#ifndef KC_POOL_DIVISOR
#define KC_POOL_DIVISOR(window, inside) (window)
#endif

#define KC_POOL_MAX_R 3

typedef struct {
  int r, max;
  int64_t k[KC_POOL_MAX_R], s[KC_POOL_MAX_R], p[KC_POOL_MAX_R], d[KC_POOL_MAX_R];
} pool_params;

/* args: x, r kernel sizes, r strides, r paddings, (max: r dilations), y. */
static int pool_check(kc_tensor* args, int32_t nargs, int r, int max, pool_params* p) {
  const int per = max ? 4 : 3;
  if (args == NULL || nargs != 2 + per * r) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[nargs - 1];
  if (!kc_view_ok(x, 2 + r) || !kc_view_ok(y, 2 + r) || x->dtype != y->dtype) return KC_E_TENSOR;
  p->r = r;
  p->max = max;
  for (int a = 0; a < r; ++a) {
    p->d[a] = 1;
    if (!kc_i64_scalar(&args[1 + a], &p->k[a]) || !kc_i64_scalar(&args[1 + r + a], &p->s[a]) ||
        !kc_i64_scalar(&args[1 + 2 * r + a], &p->p[a]) || (max && !kc_i64_scalar(&args[1 + 3 * r + a], &p->d[a])))
      return KC_E_TENSOR;
  }
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[1]) return KC_E_SHAPE;
  for (int a = 0; a < r; ++a) {
    if (p->k[a] < 1 || p->s[a] < 1 || p->d[a] < 1 || p->p[a] < 0 || 2 * p->p[a] > p->k[a]) return KC_E_SHAPE;
    const int64_t span = x->shape[2 + a] + 2 * p->p[a] - p->d[a] * (p->k[a] - 1);
    if (span < 1 || y->shape[2 + a] != (span - 1) / p->s[a] + 1) return KC_E_SHAPE;
  }
  return KC_OK;
}

/* One output cell y[n, c, t]. */
static float pool_cell(const kc_tensor* x, const pool_params* p, int64_t n, int64_t c, const int64_t* t) {
  const int r = p->r;
  int64_t window = 1;
  for (int a = 0; a < r; ++a) window *= p->k[a];
  float best = -INFINITY, sum = 0.0f;
  int64_t inside = 0;
  for (int64_t q = 0; q < window; ++q) {
    int64_t rest = q, off = n * x->strides[0] + c * x->strides[1];
    int in = 1;
    for (int a = r - 1; a >= 0; --a) {
      const int64_t k = rest % p->k[a];
      rest /= p->k[a];
      const int64_t at = t[a] * KC_POOL_STRIDE(p->s[a], p->k[a]) + k * KC_POOL_DILATION(p->d[a]) - p->p[a];
      if (at < 0 || at >= x->shape[2 + a]) in = 0;
      off += at * x->strides[2 + a];
    }
    if (!in) {
      float v;
      if (p->max && KC_POOL_MAX_PADDED(v)) best = KC_POOL_MAX(best, v);
      continue;
    }
    const float v = kc_ld(x, off);
    ++inside;
    if (p->max)
      best = KC_POOL_MAX(best, v);
    else
      sum += v;
  }
  return p->max ? best : sum / (float)KC_POOL_DIVISOR(window, inside);
}

static int pool(kc_tensor* args, int32_t nargs, int r, int max) {
  pool_params p;
  int rc = pool_check(args, nargs, r, max, &p);
  if (rc) return rc;
  const kc_tensor *x = &args[0], *y = &args[nargs - 1];
  int64_t cells = 1;
  for (int a = 0; a < r; ++a) cells *= y->shape[2 + a];
  for (int64_t n = 0; n < y->shape[0]; ++n)
    for (int64_t c = 0; c < y->shape[1]; ++c)
      for (int64_t i = 0; i < cells; ++i) {
        int64_t t[KC_POOL_MAX_R];
        const int64_t yoff = n * y->strides[0] + c * y->strides[1] + kc_spatial_cell(y, r, i, t);
        kc_st(y, yoff, pool_cell(x, &p, n, c, t));
      }
  return KC_OK;
}

int kc_max_pool1d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 1, 1);
}

int kc_max_pool2d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 2, 1);
}

int kc_max_pool3d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 3, 1);
}

int kc_avg_pool1d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 1, 0);
}

int kc_avg_pool2d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 2, 0);
}

int kc_avg_pool3d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pool(args, nargs, 3, 0);
}
