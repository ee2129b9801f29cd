/* Row sums whose nondeterminism shows only under perturbation: each row is split over 16
 * blocks, and each block adds its partial sum into y with atomicAdd after waiting a little
 * longer than the block before it. On an idle GPU the blocks, doing equal work, finish in
 * index order and the f32 additions come in the same order every run: bitwise repeatable,
 * so repeats alone do not catch it. When noise takes SMs and memory bandwidth (check with a
 * `perturb` protocol, docs/checking.md) the blocks start and load at different times, the
 * atomics arrive in another order and the rounding changes: FAIL nondeterministic.
 * scripts/gpu_check_perturb.sh checks both. */
#include "cuda_rowsum_common.h"

#define BLOCKS_PER_ROW 16
#define THREADS 256
#define STAGGER_CYCLES 1000 /* about 0.5 us per block on an H200 */

__global__ void zero_rows(float* y, int64_t R, int64_t ys) {
  for (int64_t r = threadIdx.x; r < R; r += blockDim.x) y[r * ys] = 0.0f;
}

__global__ void staggered_partial_sums(const float* x, float* y, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float s[THREADS];
  int64_t r = blockIdx.y;
  int64_t chunk = (H + BLOCKS_PER_ROW - 1) / BLOCKS_PER_ROW;
  int64_t h0 = blockIdx.x * chunk, h1 = h0 + chunk < H ? h0 + chunk : H;
  float acc = 0.0f;
  for (int64_t h = h0 + threadIdx.x; h < h1; h += THREADS) acc += x[r * xr + h * xh];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    long long start = clock64();
    while (clock64() - start < (long long)blockIdx.x * STAGGER_CYCLES) {
    }
    atomicAdd(&y[r * ys], s[0]); /* BUG (on purpose): the order of these adds is the schedule's */
  }
}

extern "C" int kc_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (!rowsum_args_ok(args, nargs)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  if (R > 65535) return 2;
  cudaStream_t s = (cudaStream_t)stream;
  float* y = (float*)args[1].data;
  zero_rows<<<1, 256, 0, s>>>(y, R, args[1].strides[0]);
  dim3 grid(BLOCKS_PER_ROW, (unsigned)R);
  staggered_partial_sums<<<grid, THREADS, 0, s>>>((const float*)args[0].data, y, H, args[0].strides[0],
                                                 args[0].strides[1], args[1].strides[0]);
  return rowsum_launched();
}
