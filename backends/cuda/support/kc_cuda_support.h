/* The CUDA backend's own device kernels (docs/backends.md, "Device-side checks"): the
 * generated input fill, the poison count and the bitwise comparison of the streamed case
 * path. kc_cuda_support.cu is compiled by nvcc at check time into a cached shared library,
 * exactly as a kernel under test is, and loaded by the worker (cuda_backend.cpp); kcontract
 * itself contains no CUDA code. Every function runs on `stream` and waits for it; it
 * returns 0, a cudaError_t, or KCS_UNSUPPORTED. */
#ifndef KC_CUDA_SUPPORT_H
#define KC_CUDA_SUPPORT_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { KCS_UNSUPPORTED = -1 };
/* What values::cellValue draws (stdlib/values/fill.cpp, sampling.cpp, det_math.cpp), one
 * rounding per operation as on the host, then numerics::roundTo the dtype. Bool and the fp8
 * formats are left to the host. */
enum kcs_kind {
  KCS_UNIFORM = 1, KCS_INT_UNIFORM = 2, KCS_INDEX_MOD = 3, KCS_EXACT_INT = 4,
  KCS_NORMAL = 5,         /* lo = mean, hi = stddev */
  KCS_CONSTANT_ROWS = 6,  /* lo = mean, hi = stddev, cols */
  KCS_SHIFTED_ROWS = 7    /* lo = meanLo, hi = meanHi, density = stddev, cols */
};

typedef struct kcs_gen {
  int32_t kind;    /* enum kcs_kind */
  int32_t dtype;   /* enum kc_dtype (kcontract/abi.h): floats but fp8, integers but bool */
  uint32_t key0, key1;  /* the tensor's Philox key (values::streamKey) */
  double lo, hi;   /* UNIFORM */
  int64_t ilo, ihi;     /* INT_UNIFORM; EXACT_INT: -magnitude..magnitude */
  double density;  /* EXACT_INT: the probability of a zero */
  uint64_t prime;  /* INDEX_MOD */
  double offset;   /* INDEX_MOD */
  uint64_t cols;   /* CONSTANT_ROWS, SHIFTED_ROWS: the row length */
  uint64_t first;  /* flat index of element 0 */
} kcs_gen;

/* Allocates the functions' result words; call once before the kernel's first launch. */
int kcs_init(void);
int kcs_fill_generated(void* dst, const kcs_gen* gen, uint64_t count, void* stream);
/* Elements of `element_bytes` (1, 2, 4 or 8) equal to the low bytes of `pattern`: their
 * number, and the lowest `max_first` of their indices (ascending) in first_out. */
int kcs_count_pattern(const void* data, uint64_t count, uint32_t element_bytes, uint64_t pattern,
                      uint64_t* count_out, uint64_t* first_out, uint32_t max_first, uint32_t* first_found,
                      void* stream);
/* Elements that differ bitwise between a and b. */
int kcs_compare_bitwise(const void* a, const void* b, uint64_t count, uint32_t element_bytes,
                        uint64_t* differ_out, void* stream);

#ifdef __cplusplus
}
#endif
#endif
