/* Diagnosis corpus (CUDA), BUGGY (private-stream): a strided add that launches on a stream
 * it creates itself (cudaStreamNonBlocking, "to overlap with the caller's work") instead of
 * the stream it is given, and returns without recording an event or waiting: the caller's
 * stream does not order after the kernel, so whoever reads c on the given stream may see it
 * before (or while) it is written. The stream is destroyed at once (its work still runs).
 * Twin: elementwise.cu (kc_add). */
#include "diag_cuda.h"

__global__ void add2(const float* a, const float* b, float* c, int64_t R, int64_t C, int64_t ar, int64_t ac, int64_t br,
                     int64_t bc, int64_t cr, int64_t cc) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < R * C; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = i / C, k = i % C;
    c[r * cr + k * cc] = a[r * ar + k * ac] + b[r * br + k * bc];
  }
}

extern "C" int kc_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream; /* BUG: the given stream is not used */
  if (args == NULL || nargs != 3) return DG_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!dg_view_ok(a, 2) || !dg_view_ok(b, 2) || !dg_view_ok(c, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(a, c) || !dg_same_shape(b, c)) return DG_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  if (R * C == 0) return DG_OK;
  cudaStream_t own;
  if (cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking) != cudaSuccess) return DG_E_LAUNCH;
  add2<<<dg_blocks(R * C, 256), 256, 0, own>>>((const float*)a->data, (const float*)b->data, (float*)c->data, R, C, a->strides[0],
                                             a->strides[1], b->strides[0], b->strides[1], c->strides[0], c->strides[1]);
  const int rc = dg_launched("add2");
  cudaStreamDestroy(own); /* returns at once; no event, no wait */
  return rc;
}
