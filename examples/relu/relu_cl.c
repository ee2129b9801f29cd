/* acme_relu on OpenCL: the correct kernel (examples/relu/relu.kcontract), the OpenCL twin of
 * relu.c: builds relu.cl once per context, one work-item per element, on the checker's queue. */
#include <stdint.h>
#include <stdio.h>

#include "kcontract/opencl.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_BUILD = 4, KC_E_LAUNCH = 5 };

static int view1d_ok(const kc_tensor* t) {
  return t->dtype == KC_F32 && t->rank == 1 && t->shape != NULL && t->strides != NULL && t->shape[0] >= 0 &&
         (t->shape[0] <= 1 || t->strides[0] >= 1);
}

int kc_acme_relu(kc_tensor* args, int32_t nargs, void* stream) {
  static kc_cl_cache cache;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  if (!view1d_ok(&args[0]) || !view1d_ok(&args[1])) return KC_E_TENSOR;
  cl_long N = args[0].shape[0];
  if (args[1].shape[0] != N) return KC_E_SHAPE;
  if (N == 0) return KC_OK;
  cl_command_queue q = (cl_command_queue)stream;
  cl_kernel k = kc_cl_kernel(q, &cache, KC_KERNEL_DIR "/relu.cl", "relu", "");
  if (!k) return KC_E_BUILD;
  cl_mem x = (cl_mem)args[0].data, y = (cl_mem)args[1].data;
  cl_long xs = args[0].strides[0], ys = args[1].strides[0];
  const size_t sizes[] = {sizeof x, sizeof y, sizeof N, sizeof xs, sizeof ys};
  const void* const values[] = {&x, &y, &N, &xs, &ys};
  if (kc_cl_args(k, 5, sizes, values)) return KC_E_LAUNCH;
  size_t global = (size_t)N;
  cl_int e = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "relu.cl: clEnqueueNDRangeKernel failed (%d)\n", (int)e);
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
