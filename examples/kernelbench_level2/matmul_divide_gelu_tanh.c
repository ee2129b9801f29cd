/* KernelBench level 2, problem 86, BUGGY: the fused GEMM, bias and division as fused.c, then
 * GELU in its tanh form, 0.5 z (1 + tanh(sqrt(2 / pi) (z + 0.044715 z^3))), which the problem's
 * nn.GELU() (the erf form) is not: off by up to about 5e-4 near |z| = 2, inside a plain
 * allclose and far outside the contract's bound (signature tanh-approximation). */
#include "../../stdlib/ops/kernels/kc_host.h"

int kc_kb_matmul_divide_gelu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 5) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *bias = &args[2], *y = &args[4];
  if (!kc_view_ok(x, 2) || !kc_view_ok(w, 2) || !kc_view_ok(bias, 1) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (w->shape[1] != x->shape[1] || bias->shape[0] != w->shape[0] || y->shape[0] != x->shape[0] ||
      y->shape[1] != w->shape[0])
    return KC_E_SHAPE;
  const float divisor = kc_scalar(&args[3]);
  for (int64_t i = 0; i < x->shape[0]; ++i)
    for (int64_t j = 0; j < w->shape[0]; ++j) {
      float s = kc_ld(bias, j * bias->strides[0]);
      for (int64_t k = 0; k < x->shape[1]; ++k)
        s += kc_ld(x, i * x->strides[0] + k * x->strides[1]) * kc_ld(w, j * w->strides[0] + k * w->strides[1]);
      const float z = s / divisor;
      const float g = 0.5f * z * (1.0f + tanhf(0.79788456080286536f * (z + 0.044715f * z * z * z)));
      kc_st(y, i * y->strides[0] + j * y->strides[1], g);
    }
  return KC_OK;
}
