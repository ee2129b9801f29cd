/* Violating kc_matmul_lower (std.op.matmul_lower@1 at f16): the lower triangle as an f16 GEMM
 * on tensor cores with an f16 accumulator (`mma.sync.m16n8k16 .f16.f16.f16.f16`, chosen for
 * speed): each MMA sums a k-step of 16 products at full precision and the running sum is
 * rounded to f16 (11 bits) after every step. Cell (i, j) sums k in j..i; on randn at N = 64
 * that is at most four roundings, inside allclose's 1e-2; it grows with N past the f32
 * bound: signature low-precision-accumulator. Zeros above the diagonal, as it should. f32 and
 * bf16 accumulate in f32 and are correct. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_matmul_lower(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t N = a->shape[0];
  if (a->shape[1] != N || !kc_same_shape(a, b) || !kc_same_shape(a, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) {
      const int64_t ao = i * a->strides[0], bo = j * b->strides[1];
      float v = 0.0f;
      if (j <= i) {
        if (c->dtype == KC_F16) {
          _Float16 acc = 0;
          for (int64_t k0 = j; k0 <= i; k0 += 16) {
            float step = 0.0f;
            for (int64_t k = k0; k <= i && k < k0 + 16; ++k) step += kc_ld(a, ao + k * a->strides[1]) * kc_ld(b, bo + k * b->strides[0]);
            acc = (_Float16)((float)acc + step);
          }
          v = (float)acc;
        } else {
          for (int64_t k = j; k <= i; ++k) v += kc_ld(a, ao + k * a->strides[1]) * kc_ld(b, bo + k * b->strides[0]);
        }
      }
      kc_st(c, i * c->strides[0] + j * c->strides[1], v);
    }
  return KC_OK;
}
