/* Row sums with a shared-memory tree reduction that is missing its __syncthreads between
 * steps: a thread reads s[t + k] that another warp may not have written yet. On most runs
 * the warps happen to line up and the sums are right; compute-sanitizer's racecheck reports
 * the hazards (`kcontract check --sanitize racecheck`, scripts/gpu_check_perturb.sh). */
#include "cuda_rowsum_common.h"

#define THREADS 256

__global__ void racy_row_sums(const float* x, float* y, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float s[THREADS];
  int64_t r = blockIdx.x;
  float acc = 0.0f;
  for (int64_t h = threadIdx.x; h < H; h += THREADS) acc += x[r * xr + h * xh];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; /* BUG: no __syncthreads() after this step */
  }
  if (threadIdx.x == 0) y[r * ys] = s[0];
}

extern "C" int kc_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (!rowsum_args_ok(args, nargs)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  if (R > 2147483647) return 2;
  racy_row_sums<<<(unsigned)R, THREADS, 0, (cudaStream_t)stream>>>((const float*)args[0].data, (float*)args[1].data, H,
                                                                  args[0].strides[0], args[0].strides[1],
                                                                  args[1].strides[0]);
  return rowsum_launched();
}
