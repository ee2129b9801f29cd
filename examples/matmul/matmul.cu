/* acme_gemm on CUDA: the correct kernel (examples/matmul/matmul.kcontract), the GPU twin
 * of matmul.c.
 *
 *   kc_acme_gemm(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N]),   c[i, j] = sum over k of a[i, k] b[k, j]
 *
 * A tiled GEMM: each block computes a 32 x 32 tile of c with 32 x 8 threads, four rows per
 * thread (a grid-stride loop over tiles, so any M and N fit the grid). K runs in tiles of
 * 32: the block copies a 32 x 32 tile of a and one of b into shared memory, zero-filled
 * past M, N and K, so the last partial tile of each of the three is handled by the loads
 * alone; then each thread sums the tile's 32 products into a partial (fused multiply-adds
 * in f32) and adds the partial to its running total, as matmul.c does. The number of K
 * tiles is rounded up: the last K % 32 terms are in the last, partial tile. Each cell of c
 * is written once, by one thread, and nothing outside the view is touched. Strides may be
 * anything positive (transposed and padded views are read through them, no vector loads);
 * indices are 64-bit, so operands with more than 2^31 elements are addressed correctly.
 *
 * The work goes on the stream the checker passes and the entry returns without waiting:
 * the checker synchronises that stream. Only f32 is supported; anything else (dtype, rank,
 * nargs, a:[M,K] b:[K,N] c:[M,N] not agreeing) returns nonzero without touching memory, and
 * so does a launch the runtime refuses (its error is printed on stderr). */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "kcontract/abi.h"

enum { KC_OK = 0, KC_E_NARGS = 1, KC_E_TENSOR = 2, KC_E_SHAPE = 3, KC_E_LAUNCH = 4 };
enum { kTile = 32, kThreadRows = 8, kRowsPerThread = kTile / kThreadRows };

static int view2d_ok(const kc_tensor* t) {
  if (t->dtype != KC_F32 || t->rank != 2 || t->shape == NULL || t->strides == NULL) return 0;
  for (int d = 0; d < 2; ++d) {
    if (t->shape[d] < 0) return 0;
    if (t->shape[d] > 1 && t->strides[d] < 1) return 0;
  }
  if (t->shape[0] > 0 && t->shape[1] > 0 && t->data == NULL) return 0;
  return 1;
}

/* Blocks along one grid dimension: one per tile, at most 65535 (the kernel loops over the rest). */
static unsigned grid_dim(int64_t tiles) { return (unsigned)(tiles < 65535 ? tiles : 65535); }

/* blockDim = (kTile, kThreadRows): thread (tx, ty) computes rows ty, ty + 8, ty + 16 and
 * ty + 24 of the tile, in column tx. */
__global__ void __launch_bounds__(kTile * kThreadRows)
    gemm_tiled(const float* a, const float* b, float* c, int64_t M, int64_t N, int64_t K, int64_t as0, int64_t as1,
               int64_t bs0, int64_t bs1, int64_t cs0, int64_t cs1) {
  __shared__ float sa[kTile][kTile];  /* sa[ii][kk] = a[i0 + ii, k0 + kk] */
  __shared__ float sb[kTile][kTile];  /* sb[kk][jj] = b[k0 + kk, j0 + jj] */
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t mTiles = (M + kTile - 1) / kTile, nTiles = (N + kTile - 1) / kTile;
  const int64_t kTiles = (K + kTile - 1) / kTile;  /* the last one is partial when K % 32 != 0 */
  for (int64_t tm = blockIdx.y; tm < mTiles; tm += gridDim.y) {
    for (int64_t tn = blockIdx.x; tn < nTiles; tn += gridDim.x) {
      const int64_t i0 = tm * kTile, j0 = tn * kTile, j = j0 + tx;
      float acc[kRowsPerThread];
      for (int r = 0; r < kRowsPerThread; ++r) acc[r] = 0.0f;
      for (int64_t t = 0; t < kTiles; ++t) {
        const int64_t k0 = t * kTile;
        for (int r = 0; r < kRowsPerThread; ++r) {
          const int row = ty + r * kThreadRows;
          const int64_t i = i0 + row, ka = k0 + tx, kb = k0 + row;
          sa[row][tx] = (i < M && ka < K) ? a[i * as0 + ka * as1] : 0.0f;
          sb[row][tx] = (kb < K && j < N) ? b[kb * bs0 + j * bs1] : 0.0f;
        }
        __syncthreads();
        for (int r = 0; r < kRowsPerThread; ++r) {
          const int row = ty + r * kThreadRows;
          float part = 0.0f;
#pragma unroll
          for (int kk = 0; kk < kTile; ++kk) part = fmaf(sa[row][kk], sb[kk][tx], part);
          acc[r] += part;
        }
        __syncthreads();  /* the tiles are overwritten by the next K step */
      }
      for (int r = 0; r < kRowsPerThread; ++r) {
        const int64_t i = i0 + ty + r * kThreadRows;
        if (i < M && j < N) c[i * cs0 + j * cs1] = acc[r];
      }
    }
  }
}

extern "C" int kc_acme_gemm(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* at = &args[0];
  const kc_tensor* bt = &args[1];
  const kc_tensor* ct = &args[2];
  if (!view2d_ok(at) || !view2d_ok(bt) || !view2d_ok(ct)) return KC_E_TENSOR;
  const int64_t M = at->shape[0], K = at->shape[1], N = bt->shape[1];
  if (bt->shape[0] != K || ct->shape[0] != M || ct->shape[1] != N) return KC_E_SHAPE;
  if (M == 0 || N == 0) return KC_OK;

  const int64_t mTiles = (M + kTile - 1) / kTile, nTiles = (N + kTile - 1) / kTile;
  dim3 grid(grid_dim(nTiles), grid_dim(mTiles));
  dim3 block(kTile, kThreadRows);
  gemm_tiled<<<grid, block, 0, (cudaStream_t)stream>>>((const float*)at->data, (const float*)bt->data,
                                                       (float*)ct->data, M, N, K, at->strides[0], at->strides[1],
                                                       bt->strides[0], bt->strides[1], ct->strides[0],
                                                       ct->strides[1]);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "matmul.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
