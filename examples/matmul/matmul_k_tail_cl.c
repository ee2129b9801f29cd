/* acme_gemm on OpenCL: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the OpenCL twin
 * of matmul_k_tail.c. The host part is that of matmul_cl.c; the bug is in matmul_k_tail.cl
 * (whole K tiles of 32 only: the last K % 32 terms of every dot product are dropped). */
#include <stdint.h>
#include <stdio.h>

#include "kcontract/opencl.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_BUILD = 4, KC_E_LAUNCH = 5 };

static int view_ok(const kc_tensor* t, int rank) {
  if (t->dtype != KC_F32 || t->rank != rank || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < rank; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  return 1;
}

int kc_acme_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  static kc_cl_cache cache;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* at = &args[0];
  const kc_tensor* bt = &args[1];
  const kc_tensor* ct = &args[2];
  if (!view_ok(at, 2) || !view_ok(bt, 2) || !view_ok(ct, 2)) return KC_E_TENSOR;
  cl_long M = at->shape[0], K = at->shape[1], N = bt->shape[1];
  if (bt->shape[0] != K || ct->shape[0] != M || ct->shape[1] != N) return KC_E_SHAPE;
  if (M == 0 || N == 0) return KC_OK;
  cl_command_queue q = (cl_command_queue)stream;
  cl_kernel k = kc_cl_kernel(q, &cache, KC_KERNEL_DIR "/matmul_k_tail.cl", "gemm", "");
  if (!k) return KC_E_BUILD;
  cl_mem a = (cl_mem)at->data, b = (cl_mem)bt->data, c = (cl_mem)ct->data;
  cl_long as0 = at->strides[0], as1 = at->strides[1], bs0 = bt->strides[0], bs1 = bt->strides[1];
  cl_long cs0 = ct->strides[0], cs1 = ct->strides[1];
  const size_t sizes[] = {sizeof a, sizeof b, sizeof c, sizeof M, sizeof N, sizeof K, sizeof as0,
                          sizeof as1, sizeof bs0, sizeof bs1, sizeof cs0, sizeof cs1};
  const void* const values[] = {&a, &b, &c, &M, &N, &K, &as0, &as1, &bs0, &bs1, &cs0, &cs1};
  if (kc_cl_args(k, 12, sizes, values)) return KC_E_LAUNCH;
  size_t global[2] = {(size_t)N, (size_t)M};  /* one work-item per cell of c */
  cl_int e = clEnqueueNDRangeKernel(q, k, 2, NULL, global, NULL, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "matmul_k_tail.cl: clEnqueueNDRangeKernel failed (%d)\n", (int)e);
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
