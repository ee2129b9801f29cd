/* Violating kc_matmul_symmetric (std.op.matmul_symmetric@1): an "f32" product of symmetric
 * matrices that rounds its operands to TF32 (10 fraction bits) before multiplying, as tensor
 * cores do when TF32 is allowed (torch.backends.cuda.matmul.allow_tf32). It reads b by rows
 * (b[k, j] as b[j, k]), which the symmetry allows. The relative error is about 1e-3, inside
 * allclose's rtol; the contract's bound is gamma(N, f32), a few 1e-6 at N = 64: signature
 * reduced-precision-products. */
#include "../../../stdlib/ops/kernels/kc_host.h"

/* Round an f32 to TF32: keep 10 fraction bits, ties away from zero (PTX cvt.rna.tf32.f32). */
static float tf32(float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  memcpy(&v, &u, 4);
  return v;
}

int kc_matmul_symmetric(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t N = a->shape[0];
  if (a->shape[1] != N || !kc_same_shape(a, b) || !kc_same_shape(a, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < N; ++k)
        acc += tf32(kc_ld(a, i * a->strides[0] + k * a->strides[1])) * tf32(kc_ld(b, j * b->strides[0] + k * b->strides[1]));
      kc_st(c, i * c->strides[0] + j * c->strides[1], acc);
    }
  return KC_OK;
}
