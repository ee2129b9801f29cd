/* KernelBench level 2 on the host: fused kernels, each a GEMM with nn.Linear's weight layout
 * ([H, D]: y = x W^T + b), the bias, then the activations, in one pass over the output. Each
 * output cell's dot product runs in 8 f32 lanes (the order a vectorised CPU kernel uses,
 * not the oracle's), then the activations in f32, rounded once to T.
 *
 *   kc_kb_gemm_add_relu(x: T[B, D], w: T[H, D], bias: T[H] -> y: T[B, H])
 *   kc_kb_matmul_divide_gelu(x, w, bias, divisor: f32 -> y)
 *   kc_kb_matmul_swish_scaling(x, w, bias, scaling: f32 -> y)
 *   kc_kb_matmul_gelu_softmax(x, w, bias -> y)                    softmax along each row
 *   kc_kb_gemm_multiply_leaky_relu(x, w, bias, multiplier: f32, slope: f32 -> y)
 */
#include <stdlib.h>

#include "../../stdlib/ops/kernels/kc_host.h"

#define LANES 8

/* x[i, :] . w[j, :] + bias[j], in f32. */
static float linear(const kc_tensor* x, const kc_tensor* w, const kc_tensor* bias, int64_t i, int64_t j) {
  const int64_t D = x->shape[1];
  float lane[LANES] = {0};
  for (int64_t k = 0; k < D; ++k)
    lane[k % LANES] += kc_ld(x, i * x->strides[0] + k * x->strides[1]) * kc_ld(w, j * w->strides[0] + k * w->strides[1]);
  float s = 0.0f;
  for (int l = 0; l < LANES; ++l) s += lane[l];
  return s + kc_ld(bias, j * bias->strides[0]);
}

/* The views every entry takes: x [B, D], w [H, D], bias [H], y [B, H], one dtype. */
static int views_ok(const kc_tensor* x, const kc_tensor* w, const kc_tensor* bias, const kc_tensor* y) {
  if (!kc_view_ok(x, 2) || !kc_view_ok(w, 2) || !kc_view_ok(bias, 1) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (w->dtype != x->dtype || bias->dtype != x->dtype || y->dtype != x->dtype) return KC_E_TENSOR;
  if (w->shape[1] != x->shape[1] || bias->shape[0] != w->shape[0] || y->shape[0] != x->shape[0] ||
      y->shape[1] != w->shape[0])
    return KC_E_SHAPE;
  return KC_OK;
}

static float gelu(float z) { return 0.5f * z * (1.0f + erff(z * 0.70710678118654752f)); }
/* z / (1 + e^-z): for z < -88 e^-z is +Inf and the quotient -0, never Inf / Inf. */
static float silu(float z) { return z / (1.0f + expf(-z)); }

typedef float (*epilogue)(float z, const float* p);

static int run(kc_tensor* args, int32_t nargs, int32_t nscalars, epilogue f) {
  if (args == NULL || nargs != 4 + nscalars) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *bias = &args[2], *y = &args[3 + nscalars];
  int ok = views_ok(x, w, bias, y);
  if (ok != KC_OK) return ok;
  float p[2] = {0, 0};
  for (int32_t s = 0; s < nscalars; ++s) p[s] = kc_scalar(&args[3 + s]);
  for (int64_t i = 0; i < x->shape[0]; ++i)
    for (int64_t j = 0; j < w->shape[0]; ++j) kc_st(y, i * y->strides[0] + j * y->strides[1], f(linear(x, w, bias, i, j), p));
  return KC_OK;
}

/* NaN stays NaN: `z > 0 ? z : 0` would turn it into 0. */
static float relu_e(float z, const float* p) { (void)p; return z < 0.0f ? 0.0f : z; }
static float divide_gelu_e(float z, const float* p) { return gelu(z / p[0]); }
static float swish_scaling_e(float z, const float* p) { return silu(z) * p[0]; }
static float multiply_leaky_relu_e(float z, const float* p) {
  const float v = z * p[0];
  return v > 0.0f ? v : p[1] * v;
}

int kc_kb_gemm_add_relu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 0, relu_e); }
int kc_kb_matmul_divide_gelu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1, divide_gelu_e); }
int kc_kb_matmul_swish_scaling(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run(args, nargs, 1, swish_scaling_e); }
int kc_kb_gemm_multiply_leaky_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return run(args, nargs, 2, multiply_leaky_relu_e);
}

/* Each row: g = gelu(linear) into y (in f32 scratch), its maximum, then e^(g - max) and the
 * row sum, then the quotient. */
int kc_kb_matmul_gelu_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *bias = &args[2], *y = &args[3];
  int ok = views_ok(x, w, bias, y);
  if (ok != KC_OK) return ok;
  const int64_t H = w->shape[0];
  float* g = (float*)malloc((size_t)H * sizeof(float));
  if (g == NULL) return KC_E_TENSOR;
  for (int64_t i = 0; i < x->shape[0]; ++i) {
    float m = -INFINITY;
    int nan = 0;
    for (int64_t j = 0; j < H; ++j) {
      g[j] = gelu(linear(x, w, bias, i, j));
      nan |= isnan(g[j]);
      if (g[j] > m) m = g[j];
    }
    float s = 0.0f;
    for (int64_t j = 0; j < H; ++j) s += (g[j] = expf(g[j] - m));
    for (int64_t j = 0; j < H; ++j) kc_st(y, i * y->strides[0] + j * y->strides[1], nan ? NAN : g[j] / s);
  }
  free(g);
  return KC_OK;
}
