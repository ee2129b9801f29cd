/* acme_gemm on CUDA: a DELIBERATELY BUGGY kernel (see examples/kernels.md), the GPU twin
 * of matmul_k_tail.c.
 *
 * matmul.cu except that the number of K tiles is K / 32, rounded down: the last partial
 * tile, the last K % 32 terms of every dot product, is never loaded or summed (with K < 32
 * every cell is 0). The loads still mask K, so nothing is read out of bounds and no tool
 * complains. For K a multiple of 32 -- every power-of-two test shape -- the output is bit
 * for bit that of matmul.cu, so any allclose test the correct kernel passes, this one
 * passes too. The contract's K in {1, 7, ...} catches it; its `k-tail` signature names it
 * (fails only when K % 32 != 0). */
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
    gemm_tiled_k_tail(const float* a, const float* b, float* c, int64_t M, int64_t N, int64_t K, int64_t as0,
                      int64_t as1, int64_t bs0, int64_t bs1, int64_t cs0, int64_t cs1) {
  __shared__ float sa[kTile][kTile];  /* sa[ii][kk] = a[i0 + ii, k0 + kk] */
  __shared__ float sb[kTile][kTile];  /* sb[kk][jj] = b[k0 + kk, j0 + jj] */
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t mTiles = (M + kTile - 1) / kTile, nTiles = (N + kTile - 1) / kTile;
  const int64_t kTiles = K / kTile;  /* BUG: rounded down; the last partial tile is dropped */
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
  gemm_tiled_k_tail<<<grid, block, 0, (cudaStream_t)stream>>>((const float*)at->data, (const float*)bt->data,
                                                              (float*)ct->data, M, N, K, at->strides[0],
                                                              at->strides[1], bt->strides[0], bt->strides[1],
                                                              ct->strides[0], ct->strides[1]);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "matmul_k_tail.cu: launch failed: %s (%s)\n", cudaGetErrorString(e), cudaGetErrorName(e));
    return KC_E_LAUNCH;
  }
  return KC_OK;
}
