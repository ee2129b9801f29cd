/* Violating kc_matmul_upper (std.op.matmul_upper@1): computes the upper triangle (k in i..j
 * for cell (i, j), exactly as the reference) and never writes the cells below the diagonal,
 * trusting the output to start zeroed (torch.empty where torch.zeros was meant). A harness
 * whose caching allocator hands the kernel the buffer its reference was just computed in
 * finds the reference's zeros there and accepts it; the cells hold whatever was in memory
 * (the checker's NaN poison): unwritten-cells. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_matmul_upper(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  const int64_t N = a->shape[0];
  if (a->shape[1] != N || !kc_same_shape(a, b) || !kc_same_shape(a, c)) return KC_E_SHAPE;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = i; j < N; ++j) {
      float acc = 0.0f;
      for (int64_t k = i; k <= j; ++k) acc += kc_ld(a, i * a->strides[0] + k * a->strides[1]) * kc_ld(b, k * b->strides[0] + j * b->strides[1]);
      kc_st(c, i * c->strides[0] + j * c->strides[1], acc);
    }
  return KC_OK;
}
