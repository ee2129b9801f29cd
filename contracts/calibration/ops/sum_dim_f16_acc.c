/* Violating kc_sum_dim (std.op.sum_dim@1): each column is reduced the way a GPU kernel with a
 * warp of 32 lanes down n does it (lane t sums the elements n = t, t + 32, t + 64, ...), but
 * each lane's running sum is an f16 (a __half register, as a kernel that accumulates in the
 * input's storage type would); the 32 lane sums are combined in f32. On randn columns of 64
 * elements each lane adds 2 terms and the error stays inside allclose; on long columns, or
 * columns with a large mean, it grows far past the f32 bound (and past 65504 a lane
 * overflows): std.prec.accumulator@1, signature low-precision-accumulator. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define LANES 32

int kc_sum_dim(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 3) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0] || y->shape[1] != x->shape[2]) return KC_E_SHAPE;
  for (int64_t b = 0; b < x->shape[0]; ++b)
    for (int64_t k = 0; k < x->shape[2]; ++k) {
      _Float16 lane[LANES] = {0};
      for (int64_t n = 0; n < x->shape[1]; ++n)
        lane[n % LANES] += (_Float16)kc_ld(x, b * x->strides[0] + n * x->strides[1] + k * x->strides[2]);
      float s = 0.0f;
      for (int t = 0; t < LANES; ++t) s += (float)lane[t];
      kc_st(y, b * y->strides[0] + k * y->strides[1], s);
    }
  return KC_OK;
}
