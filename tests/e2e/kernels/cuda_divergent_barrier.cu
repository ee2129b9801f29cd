/* Row sums whose last reduction steps call __syncthreads() inside `if (threadIdx.x < k)`,
 * k < 32: a barrier that only some lanes of one warp reach. (A barrier a whole warp reaches
 * after the other warps exited is legal since Volta, and synccheck on the H200 says nothing
 * about it: measured.) Divergence inside a warp at a barrier is undefined behaviour that
 * compute-sanitizer's synccheck reports (`kcontract check --sanitize synccheck`,
 * scripts/gpu_check_perturb.sh). */
#include "cuda_rowsum_common.h"

#define THREADS 256

__global__ void row_sums_divergent_barrier(const float* x, float* y, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float s[THREADS];
  int64_t r = blockIdx.x;
  float acc = 0.0f;
  for (int64_t h = threadIdx.x; h < H; h += THREADS) acc += x[r * xr + h * xh];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = THREADS / 2; k >= 32; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    for (int k = 16; k > 0; k >>= 1) {
      if (threadIdx.x < k) {
        s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads(); /* BUG: reached by k lanes of the first warp only */
      }
    }
    if (threadIdx.x == 0) y[r * ys] = s[0];
  }
}

extern "C" int kc_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (!rowsum_args_ok(args, nargs)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  if (R > 2147483647) return 2;
  row_sums_divergent_barrier<<<(unsigned)R, THREADS, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, H, args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  return rowsum_launched();
}
