/* Reductions of the middle dimension of the standard library on the host
 * (stdlib/ops/{sum_dim,mean_dim,amax_dim,amin_dim,argmax_dim,argmin_dim}.kcontract):
 * conforming reference kernels.
 *
 *   kc_sum_dim(x: T[B, N, K] -> y: T[B, K]), kc_mean_dim, kc_amax_dim, kc_amin_dim     T in f32, bf16, f16
 *   kc_argmax_dim(x: T[B, N, K] -> y: i64[B, K]), kc_argmin_dim
 *
 * The way a CPU kernel reduces a middle dimension: for each batch b, the columns k are taken
 * in blocks of KC_COLS (the inner dimension is the contiguous one of a packed tensor, so a
 * block is one vector load per n), and the block walks down n. Each column of a sum keeps
 * KC_SPLIT f32 partial sums (n % KC_SPLIT, an unrolled loop), combined pairwise at the end:
 * a different order of additions from the oracle's, as a real kernel's is; then one rounding
 * to T. The maximum and minimum propagate NaN (torch.amax); the arg reductions return the
 * first index of the maximum (minimum), or of the first NaN, which torch counts as the
 * largest and the smallest value. Every tensor is read and written through its strides. */
#include "kc_host.h"

#define KC_COLS 16
#define KC_SPLIT 4

/* An i64 view of rank 2 with non-negative extents and positive strides where used. */
static int index_view_ok(const kc_tensor* t) {
  if (t->dtype != KC_I64 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  return t->shape[0] * t->shape[1] == 0 || t->data != NULL;
}

/* x: a float [B, N, K] view; y: [B, K], of x's dtype (index = 0) or i64 (index = 1). */
static int check_args(kc_tensor* args, int32_t nargs, int index) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  if (!kc_view_ok(x, 3)) return KC_E_TENSOR;
  if (index ? !index_view_ok(y) : !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[2]) return KC_E_SHAPE;
  if (x->shape[1] < 1 && x->shape[0] * x->shape[2] > 0) return KC_E_SHAPE; /* no element to reduce */
  return KC_OK;
}

/* y[b, k] = sum over n of x[b, n, k] times `scale` (1 for the sum, 1 / N for the mean). */
static void sum_columns(const kc_tensor* x, const kc_tensor* y, float scale) {
  const int64_t B = x->shape[0], N = x->shape[1], K = x->shape[2];
  const int64_t xb = x->strides[0], xn = x->strides[1], xk = x->strides[2];
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k0 = 0; k0 < K; k0 += KC_COLS) {
      const int cols = (int)(K - k0 < KC_COLS ? K - k0 : KC_COLS);
      float acc[KC_SPLIT][KC_COLS] = {{0}};
      for (int64_t n = 0; n < N; ++n) {
        float* a = acc[n % KC_SPLIT];
        const int64_t row = b * xb + n * xn;
        for (int c = 0; c < cols; ++c) a[c] += kc_ld(x, row + (k0 + c) * xk);
      }
      for (int c = 0; c < cols; ++c) {
        const float s = (acc[0][c] + acc[1][c]) + (acc[2][c] + acc[3][c]);
        kc_st(y, b * y->strides[0] + (k0 + c) * y->strides[1], s * scale);
      }
    }
}

int kc_sum_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  sum_columns(&args[0], &args[1], 1.0f);
  return KC_OK;
}

int kc_mean_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  sum_columns(&args[0], &args[1], 1.0f / (float)args[0].shape[1]);
  return KC_OK;
}

/* The extreme of each column: the maximum when `largest`, else the minimum; with `index`, its
 * first position n (or the first NaN's) is stored as i64 instead of the value. */
static void extreme_columns(const kc_tensor* x, const kc_tensor* y, int largest, int index) {
  const int64_t B = x->shape[0], N = x->shape[1], K = x->shape[2];
  const int64_t xb = x->strides[0], xn = x->strides[1], xk = x->strides[2];
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k0 = 0; k0 < K; k0 += KC_COLS) {
      const int cols = (int)(K - k0 < KC_COLS ? K - k0 : KC_COLS);
      float best[KC_COLS];
      int64_t at[KC_COLS];
      for (int c = 0; c < cols; ++c) {
        best[c] = kc_ld(x, b * xb + (k0 + c) * xk); /* n = 0 */
        at[c] = 0;
      }
      for (int64_t n = 1; n < N; ++n) {
        const int64_t row = b * xb + n * xn;
        for (int c = 0; c < cols; ++c) {
          if (isnan(best[c])) continue; /* a NaN already won: it stays, at its first index */
          const float v = kc_ld(x, row + (k0 + c) * xk);
          /* Strictly better, so the first of equal values stays (-0 and +0 are equal);
           * `v > best` alone (and fmaxf) would drop a NaN. */
          if ((largest ? v > best[c] : v < best[c]) || isnan(v)) {
            best[c] = v;
            at[c] = n;
          }
        }
      }
      for (int c = 0; c < cols; ++c) {
        const int64_t off = b * y->strides[0] + (k0 + c) * y->strides[1];
        if (index)
          ((int64_t*)y->data)[off] = at[c];
        else
          kc_st(y, off, best[c]);
      }
    }
}

int kc_amax_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  extreme_columns(&args[0], &args[1], 1, 0);
  return KC_OK;
}

int kc_amin_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 0);
  if (rc) return rc;
  extreme_columns(&args[0], &args[1], 0, 0);
  return KC_OK;
}

int kc_argmax_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 1);
  if (rc) return rc;
  extreme_columns(&args[0], &args[1], 1, 1);
  return KC_OK;
}

int kc_argmin_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs, 1);
  if (rc) return rc;
  extreme_columns(&args[0], &args[1], 0, 1);
  return KC_OK;
}
