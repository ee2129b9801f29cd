/* The loss functions of the standard library on the host (stdlib/ops/{mse_loss,huber_loss,
 * kl_div,hinge_loss,cross_entropy,triplet_margin_loss}.kcontract): the conforming reference
 * kernels. Each loss is one number, written to a one-cell output loss: T[1] (docs/ops.md).
 *
 *   kc_mse_loss(p: T[N], t: T[N] -> loss)            sum (p - t)^2 / N
 *   kc_huber_loss(p: T[N], t: T[N] -> loss)          sum smooth_l1(p - t) / N (delta 1)
 *   kc_kl_div(p: T[B, D], q: T[B, D] -> loss)        sum q (log q - log p) / B (0 where q = 0)
 *   kc_hinge_loss(p: T[B, D], t: T[D] -> loss)       sum max(1 - p[b, d] t[d], 0) / (B D)
 *   kc_cross_entropy(x: T[B, C], t: i64[B] -> loss)  sum (logsumexp(x[b]) - x[b, t[b]]) / B (i32 t too)
 *   kc_triplet_margin_loss(a, p, n: T[B, D] -> loss) sum max(|a - p + 1e-6| - |a - n + 1e-6| + 1, 0) / B
 *
 * Terms in f32; every sum over the whole tensor (or the batch) as a binary tree of f32
 * partial sums with 64 terms at a leaf (a running f32 sum over a billion cells would stall
 * once each term is below half its spacing); the row sums of cross_entropy and
 * triplet_margin_loss in 8 f32 lanes. */
#include "kc_host.h"

#define KC_LANES 8

typedef float (*term_fn)(const void* ctx, int64_t i);

/* Terms lo..hi-1 as a binary tree (64 terms at a leaf). */
static float tree_sum(term_fn f, const void* ctx, int64_t lo, int64_t hi) {
  if (hi - lo <= 64) {
    float s = 0.0f;
    for (int64_t i = lo; i < hi; ++i) s += f(ctx, i);
    return s;
  }
  const int64_t mid = lo + (hi - lo) / 2;
  return tree_sum(f, ctx, lo, mid) + tree_sum(f, ctx, mid, hi);
}

typedef struct {
  const kc_tensor *a, *b, *c;
} ctx3;

/* Two float vectors of one length N and a rank-0 output of their dtype. */
static int check_pair_1d(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 1) || !kc_view_ok(t, 1) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != t->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(p, t)) return KC_E_SHAPE;
  return KC_OK;
}

static float mse_term(const void* ctx, int64_t i) {
  const ctx3* c = (const ctx3*)ctx;
  const float d = kc_ld(c->a, i * c->a->strides[0]) - kc_ld(c->b, i * c->b->strides[0]);
  return d * d;
}

int kc_mse_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_pair_1d(args, nargs);
  if (rc) return rc;
  const ctx3 c = {&args[0], &args[1], NULL};
  const int64_t N = args[0].shape[0];
  kc_st(&args[2], 0, tree_sum(mse_term, &c, 0, N) / (float)N);
  return KC_OK;
}

/* smooth_l1 with beta = 1 (Huber with delta = 1): 0.5 d^2 where |d| < 1, else |d| - 0.5. */
static float huber_term(const void* ctx, int64_t i) {
  const ctx3* c = (const ctx3*)ctx;
  const float d = fabsf(kc_ld(c->a, i * c->a->strides[0]) - kc_ld(c->b, i * c->b->strides[0]));
  return d < 1.0f ? 0.5f * d * d : d - 0.5f;
}

int kc_huber_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_pair_1d(args, nargs);
  if (rc) return rc;
  const ctx3 c = {&args[0], &args[1], NULL};
  const int64_t N = args[0].shape[0];
  kc_st(&args[2], 0, tree_sum(huber_term, &c, 0, N) / (float)N);
  return KC_OK;
}

/* Cell i of a [B, D] tensor in row-major order -> its storage offset. */
static int64_t off2(const kc_tensor* t, int64_t i) {
  const int64_t D = t->shape[1];
  return (i / D) * t->strides[0] + (i % D) * t->strides[1];
}

/* q (log q - log p), 0 where q = 0 (torch's xlogy: the limit of q log q). */
static float kl_term(const void* ctx, int64_t i) {
  const ctx3* c = (const ctx3*)ctx;
  const float p = kc_ld(c->a, off2(c->a, i)), q = kc_ld(c->b, off2(c->b, i));
  return q == 0.0f ? 0.0f : q * (logf(q) - logf(p));
}

int kc_kl_div(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *q = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 2) || !kc_view_ok(q, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != q->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(p, q)) return KC_E_SHAPE;
  const ctx3 c = {p, q, NULL};
  const int64_t B = p->shape[0], D = p->shape[1];
  kc_st(y, 0, tree_sum(kl_term, &c, 0, B * D) / (float)B);
  return KC_OK;
}

/* max(1 - p[b, d] t[d], 0): the targets broadcast along the last dim, as KernelBench's
 * predictions [B, D] times targets [D]. */
static float hinge_term(const void* ctx, int64_t i) {
  const ctx3* c = (const ctx3*)ctx;
  const float v = 1.0f - kc_ld(c->a, off2(c->a, i)) * kc_ld(c->b, (i % c->a->shape[1]) * c->b->strides[0]);
  return v > 0.0f ? v : 0.0f;
}

int kc_hinge_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *p = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(p, 2) || !kc_view_ok(t, 1) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (p->dtype != t->dtype || p->dtype != y->dtype) return KC_E_TENSOR;
  if (t->shape[0] != p->shape[1]) return KC_E_SHAPE;
  const ctx3 c = {p, t, NULL};
  const int64_t N = p->shape[0] * p->shape[1];
  kc_st(y, 0, tree_sum(hinge_term, &c, 0, N) / (float)N);
  return KC_OK;
}

/* Row b's logsumexp(x[b]) - x[b, t[b]] as (m - x[b, t[b]]) + log(sum exp(x[b] - m)), m the row
 * maximum (log_softmax's order: no rounding at the scale of m), the exponentials summed in 8
 * f32 lanes. */
static float ce_term(const void* ctx, int64_t b) {
  const ctx3* c = (const ctx3*)ctx;
  const kc_tensor *x = c->a, *t = c->b;
  const int64_t C = x->shape[1], xs = x->strides[1], xb = b * x->strides[0];
  const int64_t toff = b * t->strides[0];
  const int64_t k = t->dtype == KC_I32 ? ((const int32_t*)t->data)[toff] : ((const int64_t*)t->data)[toff];
  float m = kc_ld(x, xb);
  for (int64_t h = 1; h < C; ++h) m = fmaxf(m, kc_ld(x, xb + h * xs));
  float lane[KC_LANES] = {0};
  for (int64_t h = 0; h < C; ++h) lane[h % KC_LANES] += expf(kc_ld(x, xb + h * xs) - m);
  for (int w = KC_LANES / 2; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) lane[j] += lane[j + w];
  return (m - kc_ld(x, xb + k * xs)) + logf(lane[0]);
}

int kc_cross_entropy(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *t = &args[1], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1 || x->dtype != y->dtype) return KC_E_TENSOR;
  if ((t->dtype != KC_I32 && t->dtype != KC_I64) || t->rank != 1) return KC_E_TENSOR;
  if (t->shape[0] != x->shape[0]) return KC_E_SHAPE;
  const int64_t B = x->shape[0], C = x->shape[1];
  for (int64_t b = 0; b < B; ++b) {
    const int64_t toff = b * t->strides[0];
    const int64_t k = t->dtype == KC_I32 ? ((const int32_t*)t->data)[toff] : ((const int64_t*)t->data)[toff];
    if (k < 0 || k >= C) return KC_E_INDEX;
  }
  const ctx3 c = {x, t, NULL};
  kc_st(y, 0, tree_sum(ce_term, &c, 0, B) / (float)B);
  return KC_OK;
}

/* Row b's Euclidean norm of u[b] - v[b] + 1e-6 (torch's pairwise_distance, eps inside), the
 * squares in 8 f32 lanes. */
static float pair_dist(const kc_tensor* u, const kc_tensor* v, int64_t b) {
  const int64_t D = u->shape[1], ub = b * u->strides[0], vb = b * v->strides[0];
  float lane[KC_LANES] = {0};
  for (int64_t d = 0; d < D; ++d) {
    const float e = (kc_ld(u, ub + d * u->strides[1]) - kc_ld(v, vb + d * v->strides[1])) + 1e-6f;
    lane[d % KC_LANES] += e * e;
  }
  for (int w = KC_LANES / 2; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) lane[j] += lane[j + w];
  return sqrtf(lane[0]);
}

static float triplet_term(const void* ctx, int64_t b) {
  const ctx3* c = (const ctx3*)ctx;
  const float v = 1.0f + pair_dist(c->a, c->b, b) - pair_dist(c->a, c->c, b);
  return v > 0.0f ? v : 0.0f;
}

int kc_triplet_margin_loss(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *p = &args[1], *n = &args[2], *y = &args[3];
  if (!kc_view_ok(a, 2) || !kc_view_ok(p, 2) || !kc_view_ok(n, 2) || !kc_view_ok(y, 1) || y->shape[0] != 1) return KC_E_TENSOR;
  if (a->dtype != p->dtype || a->dtype != n->dtype || a->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, p) || !kc_same_shape(a, n)) return KC_E_SHAPE;
  const ctx3 c = {a, p, n};
  const int64_t B = a->shape[0];
  kc_st(y, 0, tree_sum(triplet_term, &c, 0, B) / (float)B);
  return KC_OK;
}
