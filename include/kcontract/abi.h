/* kcontract kernel ABI, version 1 (docs/backends.md, docs/design.md §5).
 *
 * One C entry point per kernel, the same for every in-process backend:
 *
 *   int kc_NAME(kc_tensor* args, int32_t nargs, void* stream);
 *
 * args holds the kernel's inputs in declared order, then its outputs (allocated by the
 * checker). stream is a cudaStream_t, a cl_command_queue, or NULL on the host. The entry
 * returns 0 on success; nonzero means the kernel itself reported an error (for example, it
 * detected a precondition violation). Include this header from C or C++ kernel sources. */
#ifndef KCONTRACT_ABI_H
#define KCONTRACT_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KC_ABI_VERSION 1

enum kc_dtype { KC_BOOL=0, KC_U8, KC_I8, KC_I16, KC_I32, KC_I64, KC_F8E4M3, KC_F8E5M2,
                KC_F16, KC_BF16, KC_F32, KC_F64 };

typedef struct kc_tensor {
  void* data;             /* backend buffer: CUDA device pointer, cl_mem, host pointer;
                             rank-0 tensors (scalars) are always host pointers */
  int32_t dtype;          /* enum kc_dtype */
  int32_t rank;
  const int64_t* shape;   /* rank entries */
  const int64_t* strides; /* rank entries, in elements */
} kc_tensor;

/* The type of every kernel entry point. */
typedef int (*kc_entry_fn)(kc_tensor* args, int32_t nargs, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* KCONTRACT_ABI_H */
