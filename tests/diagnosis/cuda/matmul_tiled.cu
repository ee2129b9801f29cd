/* Diagnosis corpus (CUDA), CONFORMING twin of matmul_tiled_ktail.cu and
 * matmul_warm_cache.cu: the classic shared-memory GEMM, 16 x 16 output tiles, K in tiles of
 * 16 staged through shared memory with zero fill past M, N and K (so the partial last K
 * tile is included), f32 accumulation; grid (N / 16, min(M / 16, 65535)) rounded up, a grid-stride loop over
 * the row tiles. */
#include "diag_cuda.h"

#define TS 16

__global__ void matmul_tiled(const float* a, const float* b, float* c, int64_t M, int64_t N, int64_t K, int64_t as0,
                             int64_t as1, int64_t bs0, int64_t bs1, int64_t cs0, int64_t cs1) {
  __shared__ float ta[TS][TS], tb[TS][TS];
  const int64_t j = (int64_t)blockIdx.x * TS + threadIdx.x;
  for (int64_t ti = blockIdx.y; ti * TS < M; ti += gridDim.y) { /* grid-stride over row tiles */
  const int64_t i = ti * TS + threadIdx.y;
  float acc = 0.0f;
  const int64_t nk = (K + TS - 1) / TS;
  for (int64_t t = 0; t < nk; ++t) {
    const int64_t ka = t * TS + threadIdx.x, kb = t * TS + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = (i < M && ka < K) ? a[i * as0 + ka * as1] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = (kb < K && j < N) ? b[kb * bs0 + j * bs1] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TS; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (i < M && j < N) c[i * cs0 + j * cs1] = acc;
  }
}

extern "C" int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return DG_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!dg_view_ok(a, 2) || !dg_view_ok(b, 2) || !dg_view_ok(c, 2)) return DG_E_TENSOR;
  const int64_t M = a->shape[0], K = a->shape[1], N = b->shape[1];
  if (b->shape[0] != K || c->shape[0] != M || c->shape[1] != N) return DG_E_SHAPE;
  if (M == 0 || N == 0) return DG_OK;
  const int64_t tm = (M + TS - 1) / TS;
  dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)(tm < 65535 ? tm : 65535));
  matmul_tiled<<<grid, dim3(TS, TS), 0, (cudaStream_t)stream>>>((const float*)a->data, (const float*)b->data, (float*)c->data, M, N,
                                                             K, a->strides[0], a->strides[1], b->strides[0], b->strides[1],
                                                             c->strides[0], c->strides[1]);
  return dg_launched("matmul_tiled");
}
