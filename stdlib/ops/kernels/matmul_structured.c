/* Matrix products with structured operands (stdlib/ops/matmul_{diag,symmetric,upper,lower}
 * .kcontract): conforming reference kernels that use the structure, as a kernel written for
 * it would.
 *
 *   kc_matmul_diag(a: T[N], b: T[N, M] -> c: T[N, M])            c = diag(a) b
 *   kc_matmul_symmetric(a: T[N, N], b: T[N, N] -> c: T[N, N])    a, b symmetric
 *   kc_matmul_upper(a: T[N, N], b: T[N, N] -> c: T[N, N])        triu(a b), a, b upper triangular
 *   kc_matmul_lower(a: T[N, N], b: T[N, N] -> c: T[N, N])        tril(a b), a, b lower triangular
 *                                                                T in f32, bf16, f16
 *
 * The symmetric product reads b by rows (b[k, j] = b[j, k]: both operands walked along
 * their rows). The triangular products sum only the K-range that can be nonzero (k in i..j
 * for upper, j..i for lower) and write exact zeros in the other half. Dot products in panels
 * of 64 products, each panel's f32 partial sum added to an f32 accumulator (the summation
 * order is not the oracle's); one rounding to T at the end. */
#include "kc_host.h"

#define TK 64

/* sum over k in lo..hi of x[k] y[k], x at xo with stride xs, y at yo with stride ys. */
static float dot(const kc_tensor* x, int64_t xo, int64_t xs, const kc_tensor* y, int64_t yo, int64_t ys, int64_t lo,
                 int64_t hi) {
  float acc = 0.0f;
  for (int64_t k0 = lo; k0 <= hi; k0 += TK) {
    const int64_t k1 = hi - k0 < TK ? hi : k0 + TK - 1;
    float part = 0.0f;
    for (int64_t k = k0; k <= k1; ++k) part += kc_ld(x, xo + k * xs) * kc_ld(y, yo + k * ys);
    acc += part;
  }
  return acc;
}

static int square_args(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t N = a->shape[0];
  if (a->shape[1] != N || !kc_same_shape(a, b) || !kc_same_shape(a, c)) return KC_E_SHAPE;
  return KC_OK;
}

int kc_matmul_diag(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 1) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (b->shape[0] != a->shape[0] || !kc_same_shape(b, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < c->shape[0]; ++i) {
    const float s = kc_ld(a, i * a->strides[0]);
    for (int64_t j = 0; j < c->shape[1]; ++j)
      kc_st(c, i * c->strides[0] + j * c->strides[1], s * kc_ld(b, i * b->strides[0] + j * b->strides[1]));
  }
  return KC_OK;
}

int kc_matmul_symmetric(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  const int rc = square_args(args, nargs);
  if (rc != KC_OK) return rc;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  const int64_t N = a->shape[0];
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) /* b[k, j] read as b[j, k]: row j of b */
      kc_st(c, i * c->strides[0] + j * c->strides[1],
            dot(a, i * a->strides[0], a->strides[1], b, j * b->strides[0], b->strides[1], 0, N - 1));
  return KC_OK;
}

static int triangular(kc_tensor* args, int32_t nargs, int upper) {
  const int rc = square_args(args, nargs);
  if (rc != KC_OK) return rc;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  const int64_t N = a->shape[0];
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float v = 0.0f;
      if (upper ? j >= i : j <= i)
        v = dot(a, i * a->strides[0], a->strides[1], b, j * b->strides[1], b->strides[0], upper ? i : j, upper ? j : i);
      kc_st(c, i * c->strides[0] + j * c->strides[1], v);
    }
  return KC_OK;
}

int kc_matmul_upper(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return triangular(args, nargs, 1); }
int kc_matmul_lower(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return triangular(args, nargs, 0); }
