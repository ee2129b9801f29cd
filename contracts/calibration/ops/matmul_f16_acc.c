/* Violating kc_matmul (std.op.matmul@2 at f16): an f16 GEMM on tensor cores with an f16
 * accumulator (`mma.sync.m16n8k16 .f16.f16.f16.f16`, chosen for speed, as cuBLAS's
 * CUBLAS_COMPUTE_16F does): each MMA sums a k-step of 16 products at full precision, and
 * the running sum is rounded to f16 (11 bits) after every step. On randn at K = 64 that is
 * four roundings, an error of a few 1e-3, inside allclose's 1e-2; it grows with K past the
 * f32-accumulator bound the contract allows: std.prec.accumulator@1, signature
 * low-precision-accumulator. f32 and bf16 accumulate in f32 and are correct. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N) return KC_E_SHAPE;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      const int64_t ao = i * a->strides[0], bo = j * b->strides[1];
      if (c->dtype == KC_F16) {
        _Float16 acc = 0;
        for (int64_t k0 = 0; k0 < K; k0 += 16) {
          float step = 0.0f;
          for (int64_t k = k0; k < K && k < k0 + 16; ++k) step += kc_ld(a, ao + k * a->strides[1]) * kc_ld(b, bo + k * b->strides[0]);
          acc = (_Float16)((float)acc + step);
        }
        kc_st(c, i * c->strides[0] + j * c->strides[1], (float)acc);
      } else {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; ++k) acc += kc_ld(a, ao + k * a->strides[1]) * kc_ld(b, bo + k * b->strides[0]);
        kc_st(c, i * c->strides[0] + j * c->strides[1], acc);
      }
    }
  return KC_OK;
}
