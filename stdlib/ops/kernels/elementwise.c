/* Elementwise ops of the standard library on the host (stdlib/ops/{add,mul,relu,gelu,
 * gelu_tanh,silu,exp,sigmoid,tanh,softsign,hardtanh,hardsigmoid,softplus,selu,leaky_relu,elu,
 * scale}.kcontract): conforming reference kernels.
 *
 *   kc_add(a, b -> c), kc_mul(a, b -> c), kc_relu(x -> y), kc_gelu(x -> y),
 *   kc_gelu_tanh(x -> y), kc_silu(x -> y), kc_exp(x -> y), kc_sigmoid(x -> y),
 *   kc_tanh(x -> y), kc_softsign(x -> y), kc_hardtanh(x -> y), kc_hardsigmoid(x -> y),
 *   kc_softplus(x -> y), kc_selu(x -> y)                      all T[R, C], T in f32, bf16, f16
 *   kc_leaky_relu(x, slope -> y), kc_elu(x, alpha -> y), kc_scale(x, s -> y)   a scalar f32
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

/* x and an f32 scalar input (args[1], rank 0) -> y. */
typedef float (*param_fn)(float, float);

static int run_param(kc_tensor* args, int32_t nargs, param_fn f) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float p = kc_scalar(&args[1]);
  const int64_t R = x->shape[0], C = x->shape[1];
  if (x->dtype == KC_F32 && dense(x) && dense(y)) {
    const float* xp = (const float*)x->data;
    float* yp = (float*)y->data;
    const int64_t n = R * C, body = n - n % KC_BLOCK;
    for (int64_t i = 0; i < body; i += KC_BLOCK)
      for (int k = 0; k < KC_BLOCK; ++k) yp[i + k] = f(xp[i + k], p);
    for (int64_t i = body; i < n; ++i) yp[i] = f(xp[i], p);
    return KC_OK;
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      kc_st(y, r * y->strides[0] + c * y->strides[1], f(kc_ld(x, r * x->strides[0] + c * x->strides[1]), p));
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
/* Each side in the form whose exp cannot overflow: e^-x for x >= 0, e^x below. */
static float sigmoid_f(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + expf(-x));
  const float e = expf(x);
  return e / (1.0f + e);
}
static float tanh_f(float x) { return tanhf(x); }
static float softsign_f(float x) { return x / (1.0f + fabsf(x)); }
/* Comparisons with NaN are false, so NaN falls through to x. */
static float hardtanh_f(float x) { return x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x); }
static float hardsigmoid_f(float x) { return x <= -3.0f ? 0.0f : (x >= 3.0f ? 1.0f : x / 6.0f + 0.5f); }
/* log1p keeps the small results of negative x; above 20 the result is x to f32 precision. */
static float softplus_f(float x) { return x > 20.0f ? x : log1pf(expf(x)); }
static float selu_f(float x) {
  const float alpha = 1.6732632423543772848f, scale = 1.0507009873554804934f;
  return scale * (x > 0.0f ? x : alpha * expm1f(x));
}
static float leaky_relu_f(float x, float slope) { return x > 0.0f ? x : slope * x; }
static float elu_f(float x, float alpha) { return x > 0.0f ? x : alpha * expm1f(x); }
static float scale_f(float x, float s) { return s * x; }

int kc_add(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_binary(args, nargs, add_f); }
int kc_mul(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_binary(args, nargs, mul_f); }
int kc_relu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, relu_f); }
int kc_gelu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, gelu_f); }
int kc_gelu_tanh(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, gelu_tanh_f); }
int kc_silu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, silu_f); }
int kc_exp(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, exp_f); }
int kc_sigmoid(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, sigmoid_f); }
int kc_tanh(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, tanh_f); }
int kc_softsign(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, softsign_f); }
int kc_hardtanh(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, hardtanh_f); }
int kc_hardsigmoid(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, hardsigmoid_f); }
int kc_softplus(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, softplus_f); }
int kc_selu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_unary(args, nargs, selu_f); }
int kc_leaky_relu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_param(args, nargs, leaky_relu_f); }
int kc_elu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_param(args, nargs, elu_f); }
int kc_scale(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_param(args, nargs, scale_f); }
