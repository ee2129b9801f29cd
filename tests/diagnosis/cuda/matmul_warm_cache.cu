/* Diagnosis corpus (CUDA), BUGGY (output-never-computed): the shared-memory GEMM behind a
 * "warm-up" shortcut: once it has computed a product of a given shape into a given C buffer,
 * later calls with the same C pointer and shape return 0 without launching anything,
 * assuming C still holds the result (a benchmark-gaming pattern). Twin: matmul_tiled.cu. */
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
  static void* warm_c = NULL;
  static int64_t warm_m = -1, warm_n = -1, warm_k = -1;
  if (c->data == warm_c && M == warm_m && N == warm_n && K == warm_k) return DG_OK; /* BUG: no launch */
  warm_c = c->data, warm_m = M, warm_n = N, warm_k = K;
  const int64_t tm = (M + TS - 1) / TS;
  dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)(tm < 65535 ? tm : 65535));
  matmul_tiled<<<grid, dim3(TS, TS), 0, (cudaStream_t)stream>>>((const float*)a->data, (const float*)b->data, (float*)c->data, M, N,
                                                             K, a->strides[0], a->strides[1], b->strides[0], b->strides[1],
                                                             c->strides[0], c->strides[1]);
  return dg_launched("matmul_tiled");
}
