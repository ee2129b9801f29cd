/* Violating kc_geglu (std.op.geglu@1): the tanh approximation of GELU in the gate, where the
 * model asks for the exact (erf) one: the mismatch of Gemma's first ports, whose reference
 * (JAX) used the approximate GELU and whose PyTorch port the exact one (hidden_act "gelu"
 * against "gelu_pytorch_tanh"). The two GELUs differ by at most about 5e-4 (near |a| = 2.7),
 * times |b| in y: inside allclose's 1e-2 on normal(0, 1) inputs, hundreds of f32 roundings
 * outside the contract's bound: signature tanh-approximation. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_geglu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *y = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (a->dtype != y->dtype || b->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, y) || !kc_same_shape(b, y)) return KC_E_SHAPE;
  const float k = 0.79788456080286536f; /* sqrt(2 / pi) */
  for (int64_t r = 0; r < y->shape[0]; ++r)
    for (int64_t j = 0; j < y->shape[1]; ++j) {
      const float g = kc_ld(a, r * a->strides[0] + j * a->strides[1]);
      const float u = kc_ld(b, r * b->strides[0] + j * b->strides[1]);
      kc_st(y, r * y->strides[0] + j * y->strides[1], 0.5f * g * (1.0f + tanhf(k * (g + 0.044715f * g * g * g))) * u);
    }
  return KC_OK;
}
