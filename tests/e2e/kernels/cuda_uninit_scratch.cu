/* Row sums that start from a scratch buffer the kernel allocates and never clears: fresh
 * device memory is usually zero, so the sums come out right and every plain test passes;
 * compute-sanitizer's initcheck reports the uninitialised global reads
 * (`kcontract check --sanitize initcheck`, scripts/gpu_check_perturb.sh). */
#include "cuda_rowsum_common.h"

#define THREADS 256

__global__ void row_sums_from_scratch(const float* x, const float* scratch, float* y, int64_t H, int64_t xr, int64_t xh,
                                      int64_t ys) {
  __shared__ float s[THREADS];
  int64_t r = blockIdx.x;
  float acc = 0.0f;
  for (int64_t h = threadIdx.x; h < H; h += THREADS) acc += x[r * xr + h * xh];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[r * ys] = scratch[r] + s[0]; /* BUG: scratch was never written */
}

extern "C" int kc_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (!rowsum_args_ok(args, nargs)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  if (R > 2147483647) return 2;
  cudaStream_t s = (cudaStream_t)stream;
  float* scratch = NULL;
  if (cudaMalloc((void**)&scratch, (size_t)R * sizeof(float)) != cudaSuccess) return 3;
  row_sums_from_scratch<<<(unsigned)R, THREADS, 0, s>>>((const float*)args[0].data, scratch, (float*)args[1].data, H,
                                                       args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  int rc = rowsum_launched();
  cudaStreamSynchronize(s);
  cudaFree(scratch);
  return rc;
}
