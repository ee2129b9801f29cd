/* Helpers for the host files of OpenCL kernels (docs/backends.md, "The OpenCL backend").
 *
 * An OpenCL kernel for kcontract is a C or C++ file with the ABI entry
 *   int kc_NAME(kc_tensor* args, int32_t nargs, void* stream);
 * where every tensor's data is a cl_mem (rank-0 scalars: host pointers) and stream is the
 * cl_command_queue to enqueue on. The backend compiles it with -DKC_KERNEL_DIR="<its
 * folder>", so the .cl program beside it is found at run time:
 *
 *   static kc_cl_cache cache;
 *   cl_kernel k = kc_cl_kernel(queue, &cache, KC_KERNEL_DIR "/softmax.cl", "softmax_rows", "");
 *
 * The entry enqueues its work on the queue and returns without waiting; the checker waits
 * for that queue (clFinish) before it reads the outputs back. */
#ifndef KCONTRACT_OPENCL_H
#define KCONTRACT_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcontract/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One built kernel, kept across the launches of a worker (the same context). */
typedef struct kc_cl_cache {
  cl_context context;
  cl_program program;
  cl_kernel kernel;
} kc_cl_cache;

/* The kernel `name` of the program in `path`, built for the queue's context and device with
 * `options`; built once per context and kept in *cache. NULL on failure, with the reason
 * (the compiler's build log) printed on stderr. */
static inline cl_kernel kc_cl_kernel(cl_command_queue queue, kc_cl_cache* cache, const char* path, const char* name,
                                     const char* options) {
  cl_context ctx = NULL;
  cl_device_id dev = NULL;
  cl_int e;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS ||
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS) {
    fprintf(stderr, "kc_cl_kernel: not a command queue\n");
    return NULL;
  }
  if (cache->kernel && cache->context == ctx) return cache->kernel;
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "kc_cl_kernel: cannot open '%s'\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = (char*)malloc((size_t)size + 1);
  size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
  fclose(f);
  if (!text || got != (size_t)size) {
    free(text);
    fprintf(stderr, "kc_cl_kernel: cannot read '%s'\n", path);
    return NULL;
  }
  text[size] = '\0';
  const char* sources[1] = {text};
  cl_program prog = clCreateProgramWithSource(ctx, 1, sources, NULL, &e);
  free(text);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "kc_cl_kernel: clCreateProgramWithSource failed (%d)\n", (int)e);
    return NULL;
  }
  e = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
  if (e != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char* log = (char*)malloc(n + 1);
    if (log) {
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
      log[n] = '\0';
    }
    fprintf(stderr, "kc_cl_kernel: building '%s' failed (%d):\n%s\n", path, (int)e, log ? log : "");
    free(log);
    clReleaseProgram(prog);
    return NULL;
  }
  cl_kernel k = clCreateKernel(prog, name, &e);
  if (e != CL_SUCCESS) {
    fprintf(stderr, "kc_cl_kernel: no kernel '%s' in '%s' (%d)\n", name, path, (int)e);
    clReleaseProgram(prog);
    return NULL;
  }
  cache->context = ctx;
  cache->program = prog;
  cache->kernel = k;
  return k;
}

/* Sets the kernel's arguments from a list of (size, pointer) pairs; nonzero on failure. */
static inline int kc_cl_args(cl_kernel k, int n, const size_t* sizes, const void* const* values) {
  for (int i = 0; i < n; ++i) {
    cl_int e = clSetKernelArg(k, (cl_uint)i, sizes[i], values[i]);
    if (e != CL_SUCCESS) {
      fprintf(stderr, "kc_cl_args: argument %d: clSetKernelArg failed (%d)\n", i, (int)e);
      return 1;
    }
  }
  return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* KCONTRACT_OPENCL_H */
