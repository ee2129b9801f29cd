/* The normalisations of an [N, C, H, W] tensor (stdlib/ops/{batch_norm,instance_norm,
 * group_norm,rmsnorm_channels}.kcontract): conforming host reference kernels.
 *
 *   kc_batch_norm(x: T[N, C, H, W], weight: T[C], bias: T[C], eps: f32 -> y)
 *       statistics per channel over its N H W cells (training mode), then the affine step
 *   kc_instance_norm(x: T[N, C, H, W], eps: f32 -> y)
 *       statistics per (n, c) over its H W cells, no affine
 *   kc_group_norm(x: T[N, G * CG, H, W], weight: T[G * CG], bias: T[G * CG], groups: i64,
 *                 eps: f32 -> y)
 *       statistics per (n, g) over its CG H W cells, group g the channels g CG .. g CG + CG - 1;
 *       the group count is a scalar input (no shape tells it)
 *   kc_rmsnorm_channels(x: T[N, C, H, W], eps: f32 -> y)
 *       y = x / sqrt(mean over the channels of x^2 + eps), per (n, i, j)
 *
 * Statistics in f32: Welford's update in 8 lanes (the k-th cell of a set to lane k % 8), the
 * lanes merged pairwise with Chan's formula, so a large mean never cancels; then
 * y = (x - mean) * (rsqrt(var + eps) * weight) + bias. The mean square of rmsnorm_channels:
 * 8 f32 lanes merged pairwise. */
#include "kc_host.h"

#define KC_LANES 8

typedef struct {
  float n[KC_LANES], mean[KC_LANES], m2[KC_LANES];
  int64_t k;
} welford;

static void wf_init(welford* w) { memset(w, 0, sizeof *w); }

static void wf_add(welford* w, float v) {
  const int k = (int)(w->k++ % KC_LANES);
  w->n[k] += 1.0f;
  const float d = v - w->mean[k];
  w->mean[k] += d / w->n[k];
  w->m2[k] += d * (v - w->mean[k]);
}

/* The mean and the biased variance of the cells added. */
static void wf_done(welford* w, float* mean, float* var) {
  for (int s = KC_LANES / 2; s >= 1; s /= 2)
    for (int k = 0; k < s; ++k) {
      const float nb = w->n[k + s];
      if (nb == 0.0f) continue;
      const float na = w->n[k], nn = na + nb, d = w->mean[k + s] - w->mean[k];
      w->mean[k] += d * (nb / nn);
      w->m2[k] += w->m2[k + s] + d * d * (na * nb / nn);
      w->n[k] = nn;
    }
  *mean = w->mean[0];
  *var = w->m2[0] / w->n[0];
}

static int64_t at(const kc_tensor* t, int64_t n, int64_t c, int64_t i, int64_t j) {
  return n * t->strides[0] + c * t->strides[1] + i * t->strides[2] + j * t->strides[3];
}

/* x (args[0]) and y (args[nargs - 1]) of rank 4 and one shape and dtype, eps (args[nargs - 2])
 * an f32 scalar; with affine, weight and bias (args[1], args[2]) of rank 1, x's dtype and
 * x's channel count. */
static int check_args(kc_tensor* args, int32_t nargs, int affine) {
  if (args == NULL || nargs != (affine ? 5 : 3)) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *eps = &args[nargs - 2], *y = &args[nargs - 1];
  if (!kc_view_ok(x, 4) || !kc_view_ok(eps, 0) || !kc_view_ok(y, 4)) return KC_E_TENSOR;
  if (x->dtype != y->dtype || eps->dtype != KC_F32) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  if (affine)
    for (int a = 1; a <= 2; ++a) {
      if (!kc_view_ok(&args[a], 1) || args[a].dtype != x->dtype) return KC_E_TENSOR;
      if (args[a].shape[0] != x->shape[1]) return KC_E_SHAPE;
    }
  return KC_OK;
}

/* y over channels c0..c1-1 of sample n0..n1-1: (x - mean) * (inv * weight[c]) + bias[c]
 * (weight 1 and bias 0 when w is NULL). */
static void normalise(const kc_tensor* x, const kc_tensor* w, const kc_tensor* b, const kc_tensor* y, int64_t n0,
                      int64_t n1, int64_t c0, int64_t c1, float mean, float inv) {
  const int64_t H = x->shape[2], W = x->shape[3];
  for (int64_t c = c0; c < c1; ++c) {
    const float a = w ? inv * kc_ld(w, c * w->strides[0]) : inv;
    const float s = b ? kc_ld(b, c * b->strides[0]) : 0.0f;
    for (int64_t n = n0; n < n1; ++n)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) kc_st(y, at(y, n, c, i, j), (kc_ld(x, at(x, n, c, i, j)) - mean) * a + s);
  }
}

/* The statistics of samples n0..n1-1, channels c0..c1-1, then their normalisation. */
static void norm_set(const kc_tensor* x, const kc_tensor* w, const kc_tensor* b, const kc_tensor* y, float eps,
                     int64_t n0, int64_t n1, int64_t c0, int64_t c1) {
  const int64_t H = x->shape[2], W = x->shape[3];
  welford st;
  wf_init(&st);
  for (int64_t n = n0; n < n1; ++n)
    for (int64_t c = c0; c < c1; ++c)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) wf_add(&st, kc_ld(x, at(x, n, c, i, j)));
  float mean, var;
  wf_done(&st, &mean, &var);
  normalise(x, w, b, y, n0, n1, c0, c1, mean, 1.0f / sqrtf(var + eps));
}

int kc_batch_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 1);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const float eps = kc_scalar(&args[3]);
  if (kc_numel(x) == 0) return KC_OK;
  for (int64_t c = 0; c < x->shape[1]; ++c) norm_set(x, &args[1], &args[2], &args[4], eps, 0, x->shape[0], c, c + 1);
  return KC_OK;
}

int kc_instance_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const float eps = kc_scalar(&args[1]);
  if (kc_numel(x) == 0) return KC_OK;
  for (int64_t n = 0; n < x->shape[0]; ++n)
    for (int64_t c = 0; c < x->shape[1]; ++c) norm_set(x, NULL, NULL, &args[2], eps, n, n + 1, c, c + 1);
  return KC_OK;
}

/* kc_group_norm(x, weight, bias, groups, eps -> y): the group count is an i64 scalar input
 * (args[3]) that divides C. */
int kc_group_norm(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 6) return KC_E_NARGS;
  int64_t G;
  if (!kc_i64_scalar(&args[3], &G) || G < 1) return KC_E_TENSOR;
  /* The same checks as the others' with the scalar left out. */
  kc_tensor rest[5] = {args[0], args[1], args[2], args[4], args[5]};
  int rc = check_args(rest, 5, 1);
  if (rc) return rc;
  const kc_tensor* x = &args[0];
  const int64_t C = x->shape[1];
  if (C % G != 0) return KC_E_SHAPE;
  const float eps = kc_scalar(&args[4]);
  if (kc_numel(x) == 0) return KC_OK;
  const int64_t CG = C / G;
  for (int64_t n = 0; n < x->shape[0]; ++n)
    for (int64_t g = 0; g < G; ++g) norm_set(x, &args[1], &args[2], &args[5], eps, n, n + 1, g * CG, g * CG + CG);
  return KC_OK;
}

int kc_rmsnorm_channels(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  const kc_tensor *x = &args[0], *y = &args[2];
  const float eps = kc_scalar(&args[1]);
  const int64_t N = x->shape[0], C = x->shape[1], H = x->shape[2], W = x->shape[3];
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < H; ++i)
      for (int64_t j = 0; j < W; ++j) {
        float lane[KC_LANES] = {0};
        for (int64_t c = 0; c < C; ++c) {
          const float v = kc_ld(x, at(x, n, c, i, j));
          lane[c % KC_LANES] += v * v;
        }
        for (int s = KC_LANES / 2; s >= 1; s /= 2)
          for (int k = 0; k < s; ++k) lane[k] += lane[k + s];
        const float inv = 1.0f / sqrtf(lane[0] / (float)C + eps);
        for (int64_t c = 0; c < C; ++c) kc_st(y, at(y, n, c, i, j), kc_ld(x, at(x, n, c, i, j)) * inv);
      }
  return KC_OK;
}
