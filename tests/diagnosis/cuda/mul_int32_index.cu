/* Diagnosis corpus (CUDA), BUGGY (index-overflow): a strided multiply with the usual
 * `int i = blockIdx.x * blockDim.x + threadIdx.x` and int offsets: for tensors of 2^31 cells
 * or more the flat index (and r * stride) overflows int: cells past 2^31 are never written
 * or land at wrapped (negative) offsets. Right for everything smaller. Twin: elementwise.cu
 * (kc_mul). */
#include "diag_cuda.h"

__global__ void mul2(const float* a, const float* b, float* c, int R, int C, int ar, int ac, int br, int bc, int cr, int cc) {
  const int n = R * C; /* BUG: 32-bit cell count and indices */
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int r = i / C, k = i % C;
    c[r * cr + k * cc] = a[r * ar + k * ac] * b[r * br + k * bc];
  }
}

extern "C" int kc_mul(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return DG_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!dg_view_ok(a, 2) || !dg_view_ok(b, 2) || !dg_view_ok(c, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(a, c) || !dg_same_shape(b, c)) return DG_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  if (R * C == 0) return DG_OK;
  mul2<<<dg_blocks(R * C, 256), 256, 0, (cudaStream_t)stream>>>((const float*)a->data, (const float*)b->data, (float*)c->data, (int)R,
                                                               (int)C, (int)a->strides[0], (int)a->strides[1], (int)b->strides[0],
                                                               (int)b->strides[1], (int)c->strides[0], (int)c->strides[1]);
  return dg_launched("mul2");
}
