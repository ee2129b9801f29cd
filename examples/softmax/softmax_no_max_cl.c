/* acme_softmax on OpenCL: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the OpenCL
 * twin of softmax_no_max.c. The host part is that of softmax_cl.c; the bug is in
 * softmax_no_max.cl (no row maximum, exponentials in f32: overflow for x > 88.72). */
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

int kc_acme_softmax(kc_tensor* args, int32_t nargs, void* stream) {
  static kc_cl_cache cache;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* xt = &args[0];
  const kc_tensor* yt = &args[1];
  if (!view_ok(xt, 2) || !view_ok(yt, 2)) return KC_E_TENSOR;
  cl_long R = xt->shape[0], H = xt->shape[1];
  if (yt->shape[0] != R || yt->shape[1] != H) return KC_E_SHAPE;
  if (R == 0 || H == 0) return KC_OK;
  cl_command_queue q = (cl_command_queue)stream;
  cl_kernel k = kc_cl_kernel(q, &cache, KC_KERNEL_DIR "/softmax_no_max.cl", "softmax_rows", "");
  if (!k) return KC_E_BUILD;
  cl_mem x = (cl_mem)xt->data, y = (cl_mem)yt->data;
  cl_long xr = xt->strides[0], xh = xt->strides[1], yr = yt->strides[0], yh = yt->strides[1];
  const size_t sizes[] = {sizeof x, sizeof y, sizeof R, sizeof H, sizeof xr, sizeof xh, sizeof yr, sizeof yh};
  const void* const values[] = {&x, &y, &R, &H, &xr, &xh, &yr, &yh};
  if (kc_cl_args(k, 8, sizes, values)) return KC_E_LAUNCH;
  size_t global = (size_t)R;  /* one work-item per row */
  cl_int e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "softmax_no_max.cl: clEnqueueNDRangeKernel failed (%d)\n", (int)e);
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
