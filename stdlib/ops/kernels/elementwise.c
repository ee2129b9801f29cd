/* Elementwise ops of the standard library on the host (stdlib/ops/{add,mul,relu,gelu,
 * gelu_tanh,silu,exp}.kcontract): conforming reference kernels.
 *
 *   kc_add(a, b -> c), kc_mul(a, b -> c), kc_relu(x -> y), kc_gelu(x -> y),
 *   kc_gelu_tanh(x -> y), kc_silu(x -> y), kc_exp(x -> y)     all T[R, C], T in f32, bf16, f16
 *
 * Written the way a CPU kernel is: when every view is dense row-major, one flat loop in
 * blocks of 8 (which the compiler vectorises) and a scalar tail; otherwise a strided loop
 * over rows and columns. Everything is computed in f32 with the C library's f32 functions
 * and rounded once to the output dtype. */
#include "kc_host.h"

#define KC_BLOCK 8

static int dense(const kc_tensor* t) {
  return t->rank == 2 && (t->shape[1] <= 1 || t->strides[1] == 1) && (t->shape[0] <= 1 || t->strides[0] == t->shape[1]);
}

typedef float (*unary_fn)(float);
typedef float (*binary_fn)(float, float);

static int run_unary(kc_tensor* args, int32_t nargs, unary_fn f) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (x->dtype == KC_F32 && dense(x) && dense(y)) {
    const float* xp = (const float*)x->data;
    float* yp = (float*)y->data;
    const int64_t n = R * C, body = n - n % KC_BLOCK;
    for (int64_t i = 0; i < body; i += KC_BLOCK)
      for (int k = 0; k < KC_BLOCK; ++k) yp[i + k] = f(xp[i + k]);
    for (int64_t i = body; i < n; ++i) yp[i] = f(xp[i]);
    return KC_OK;
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      kc_st(y, r * y->strides[0] + c * y->strides[1], f(kc_ld(x, r * x->strides[0] + c * x->strides[1])));
  return KC_OK;
}

static int run_binary(kc_tensor* args, int32_t nargs, binary_fn f) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* a = &args[0];
  const kc_tensor* b = &args[1];
  const kc_tensor* c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  if (c->dtype == KC_F32 && dense(a) && dense(b) && dense(c)) {
    const float* ap = (const float*)a->data;
    const float* bp = (const float*)b->data;
    float* cp = (float*)c->data;
    const int64_t n = R * C, body = n - n % KC_BLOCK;
    for (int64_t i = 0; i < body; i += KC_BLOCK)
      for (int k = 0; k < KC_BLOCK; ++k) cp[i + k] = f(ap[i + k], bp[i + k]);
    for (int64_t i = body; i < n; ++i) cp[i] = f(ap[i], bp[i]);
    return KC_OK;
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t j = 0; j < C; ++j)
      kc_st(c, r * c->strides[0] + j * c->strides[1],
            f(kc_ld(a, r * a->strides[0] + j * a->strides[1]), kc_ld(b, r * b->strides[0] + j * b->strides[1])));
  return KC_OK;
}

static float add_f(float a, float b) { return a + b; }
static float mul_f(float a, float b) { return a * b; }
/* NaN stays NaN: `x > 0 ? x : 0` would turn it into 0. */
static float relu_f(float x) { return x < 0.0f ? 0.0f : x; }
static float gelu_f(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
static float gelu_tanh_f(float x) {
  const float k = 0.79788456080286536f; /* sqrt(2 / pi) */
  return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}
/* x / (1 + e^-x): for x < -88 e^-x is +Inf and the quotient -0; never Inf / Inf. */
static float silu_f(float x) { return x / (1.0f + expf(-x)); }
static float exp_f(float x) { return expf(x); }

int kc_add(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_binary(args, nargs, add_f); }
int kc_mul(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_binary(args, nargs, mul_f); }
int kc_relu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, relu_f); }
int kc_gelu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, gelu_f); }
int kc_gelu_tanh(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, gelu_tanh_f); }
int kc_silu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, silu_f); }
int kc_exp(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, exp_f); }
