/* Violating kc_dequantize_fp8 (std.op.dequantize_fp8@1): the e4m3fn byte decoded by moving
 * its fields into an f32 (sign to bit 31, exponent + 120 to bits 23-30, fraction to bits
 * 20-22), with NaN (S.1111.111) checked, as fast converters do, but exponent field 0 read
 * as a normal binade: a subnormal 0.fff 2^-6 comes out as 1.fff 2^-7 (zero stays zero).
 * Those are below 2^-6 times the scale, far inside allclose's atol; the contract's
 * subnormal-heavy inputs show them: signature subnormals-misdecoded. */
#include "../../../stdlib/ops/kernels/kc_host.h"

static float decode(uint8_t b) {
  if ((b & 0x7f) == 0x7f) return NAN;
  if ((b & 0x7f) == 0) return (b & 0x80) ? -0.0f : 0.0f;
  const uint32_t u = ((uint32_t)(b & 0x80) << 24) | ((uint32_t)(((b >> 3) & 0x0f) + 120) << 23) | ((uint32_t)(b & 0x07) << 20);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

int kc_dequantize_fp8(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *s = &args[1], *y = &args[2];
  if (x->dtype != KC_F8E4M3 || x->rank != 2 || s->dtype != KC_F32 || s->rank != 0 || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float sc = *(const float*)s->data;
  const uint8_t* xp = (const uint8_t*)x->data;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < x->shape[1]; ++c)
      kc_st(y, r * y->strides[0] + c * y->strides[1], decode(xp[r * x->strides[0] + c * x->strides[1]]) * sc);
  return KC_OK;
}
