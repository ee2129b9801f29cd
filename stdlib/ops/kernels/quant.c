/* Quantisation ops of the standard library on the host (stdlib/ops/{quantize_int8,
 * dequantize_int4,dequantize_fp8}.kcontract): conforming reference kernels.
 *
 *   kc_quantize_int8(x: T[R, C], scale: f32[R] -> q: i8[R, C])              T in f32, bf16, f16
 *   kc_dequantize_int4(q: u8[R, G * H], scale: T[R, G] -> y: T[R, 2 * G * H])       T in f32, bf16, f16
 *   kc_dequantize_fp8(x: f8e4m3[R, C], scale: f32 (scalar) -> y: T[R, C])             T in f32, bf16, f16
 *
 * Written the way an inference library's CPU path is: a loop over rows, the row's scale
 * loaded once, strides honoured. */
#include "kc_host.h"

static int view_ok(const kc_tensor* t, int32_t rank) {
  if (t->rank != rank || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < rank; ++d)
    if (t->shape[d] < 0 || (t->shape[d] > 1 && t->strides[d] < 1)) return 0;
  return 1;
}

/* x / s rounded to f32 (one correctly rounded division), then to the nearest integer, ties to
 * even (rintf in the default rounding mode), saturated to [-128, 127]; NaN gives 0 (a bare
 * (int8_t) of NaN is undefined behaviour). The clamp is on the float, before the conversion,
 * so ±Inf and quotients past the range saturate. */
static inline int8_t quantize_one(float x, float s) {
  const float v = x / s;
  if (v != v) return 0;
  const float r = rintf(v);
  return (int8_t)(r < -128.0f ? -128.0f : (r > 127.0f ? 127.0f : r));
}

int kc_quantize_int8(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *s = &args[1], *q = &args[2];
  if (!kc_view_ok(x, 2) || !view_ok(s, 1) || s->dtype != KC_F32 || !view_ok(q, 2) || q->dtype != KC_I8)
    return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (s->shape[0] != R || q->shape[0] != R || q->shape[1] != C) return KC_E_SHAPE;
  const float* sp = (const float*)s->data;
  int8_t* qp = (int8_t*)q->data;
  for (int64_t r = 0; r < R; ++r) {
    const float sr = sp[r * s->strides[0]];
    const int64_t xr = r * x->strides[0], qr = r * q->strides[0];
    for (int64_t c = 0; c < C; ++c) qp[qr + c * q->strides[1]] = quantize_one(kc_ld(x, xr + c * x->strides[1]), sr);
  }
  return KC_OK;
}

/* Two int4 values per byte, low nibble first, each nibble - 8; group g = c / (2 H) of a row
 * scaled by scale[r, g]. The product (nibble - 8) * scale in f32 (exact for bf16 and f16
 * scales, one rounding for f32 ones) and one rounding to T on the store. One byte per step
 * writes its two columns; a group's scale is loaded once. */
int kc_dequantize_int4(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *q = &args[0], *s = &args[1], *y = &args[2];
  if (!view_ok(q, 2) || q->dtype != KC_U8 || !kc_view_ok(s, 2) || !kc_view_ok(y, 2) || s->dtype != y->dtype)
    return KC_E_TENSOR;
  const int64_t R = q->shape[0], C2 = q->shape[1], G = s->shape[0] == R ? s->shape[1] : -1;
  if (G < 1 || C2 % G != 0 || y->shape[0] != R || y->shape[1] != 2 * C2) return KC_E_SHAPE;
  const int64_t H = C2 / G; /* bytes per group */
  const uint8_t* qp = (const uint8_t*)q->data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t g = 0; g < G; ++g) {
      const float sg = kc_ld(s, r * s->strides[0] + g * s->strides[1]);
      for (int64_t k = 0; k < H; ++k) {
        const int64_t b = g * H + k;
        const uint8_t byte = qp[r * q->strides[0] + b * q->strides[1]];
        const int64_t yo = r * y->strides[0] + 2 * b * y->strides[1];
        kc_st(y, yo, (float)((int)(byte & 0x0f) - 8) * sg);
        kc_st(y, yo + y->strides[1], (float)((int)(byte >> 4) - 8) * sg);
      }
    }
  return KC_OK;
}

/* An OCP e4m3fn byte as float, exactly: sign, 4 exponent bits of bias 7, 3 fraction bits;
 * exponent field 0 holds the subnormals f 2^-9, S.1111.111 is NaN, and there is no Inf. */
static inline float kc_e4m3_to_f32(uint8_t b) {
  const int e = (b >> 3) & 0x0f, f = b & 0x07;
  float v;
  if (e == 0x0f && f == 0x07) v = NAN;
  else if (e == 0) v = ldexpf((float)f, -9);
  else v = ldexpf((float)(8 + f), e - 10);
  return (b & 0x80) ? -v : v;
}

/* y = x * scale: the e4m3fn value decoded exactly, the product in f32 (one rounding), one
 * rounding to T on the store. */
int kc_dequantize_fp8(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *s = &args[1], *y = &args[2];
  if (!view_ok(x, 2) || x->dtype != KC_F8E4M3 || s->dtype != KC_F32 || s->rank != 0 || s->data == NULL ||
      !kc_view_ok(y, 2))
    return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const float sc = *(const float*)s->data;
  const uint8_t* xp = (const uint8_t*)x->data;
  const int64_t R = x->shape[0], C = x->shape[1];
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      kc_st(y, r * y->strides[0] + c * y->strides[1], kc_e4m3_to_f32(xp[r * x->strides[0] + c * x->strides[1]]) * sc);
  return KC_OK;
}
