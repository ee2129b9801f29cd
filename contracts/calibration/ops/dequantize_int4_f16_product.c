/* Violating kc_dequantize_int4 (std.op.dequantize_int4@1): each value formed in f16, the
 * operand dtype of the half-precision GEMMs most int4 kernels feed (the scale converted to
 * half, (nibble - 8) * scale in half), and only then written as T. With f16 or bf16 scales
 * the products are exact in f16 and the result is right; with f32 scales each is about 2^-11
 * relative off, well inside allclose, and the contract's half an f32 spacing refuses it:
 * signature half-precision-dequant (at T = f32). */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_dequantize_int4(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *s = &args[1], *y = &args[2];
  if (q->dtype != KC_U8 || q->rank != 2 || !kc_view_ok(s, 2) || !kc_view_ok(y, 2) || s->dtype != y->dtype)
    return KC_E_TENSOR;
  const int64_t R = q->shape[0], C2 = q->shape[1], G = s->shape[1];
  if (s->shape[0] != R || G < 1 || C2 % G != 0 || y->shape[0] != R || y->shape[1] != 2 * C2) return KC_E_SHAPE;
  const int64_t H = C2 / G;
  const uint8_t* qp = (const uint8_t*)q->data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t b = 0; b < C2; ++b) {
      const _Float16 sg = (_Float16)kc_ld(s, r * s->strides[0] + (b / H) * s->strides[1]);
      const uint8_t byte = qp[r * q->strides[0] + b * q->strides[1]];
      const _Float16 lo = (_Float16)((int)(byte & 0x0f) - 8) * sg, hi = (_Float16)((int)(byte >> 4) - 8) * sg;
      kc_st(y, r * y->strides[0] + 2 * b * y->strides[1], (float)lo);
      kc_st(y, r * y->strides[0] + (2 * b + 1) * y->strides[1], (float)hi);
    }
  return KC_OK;
}
