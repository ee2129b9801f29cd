/* Diagnosis corpus (CUDA), BUGGY (online-softmax-rescale): the block-per-query flash
 * attention whose author rescales the running normaliser l by exp(m_old - m_new) when a key
 * block raises the max but not the output accumulator: the earlier blocks' weighted values
 * stay at their old, larger scale. Right while every key fits one block (L <= 16).
 * Twin: attention_flash.cu. */
#include "diag_cuda.h"

#define BK 16
#define NT 128

__device__ float block_sum(float v, float* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int w = NT / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  const float r = sh[0];
  __syncthreads();
  return r;
}

__global__ void attn(const float* q, const float* k, const float* v, float* o, float* acc, int64_t S, int64_t L, int64_t D,
                     int64_t qs0, int64_t qs1, int64_t ks0, int64_t ks1, int64_t vs0, int64_t vs1, int64_t os0, int64_t os1, float scale) {
  __shared__ float sh[NT];
  for (int64_t i = blockIdx.x; i < S; i += gridDim.x) {
    float* a = acc + i * D;
    for (int64_t d = threadIdx.x; d < D; d += NT) a[d] = 0.0f;
    float m = -INFINITY, l = 0.0f; /* the same in every thread */
    for (int64_t j0 = 0; j0 < L; j0 += BK) {
      const int nb = (int)(L - j0 < BK ? L - j0 : BK);
      float s[BK];
      float bm = -INFINITY;
      for (int j = 0; j < nb; ++j) {
        float part = 0.0f;
        for (int64_t d = threadIdx.x; d < D; d += NT) part += q[i * qs0 + d * qs1] * k[(j0 + j) * ks0 + d * ks1];
        s[j] = block_sum(part, sh) * scale;
        bm = dg_nanmax(bm, s[j]);
      }
      const float mn = dg_nanmax(m, bm);
      const float corr = expf(m - mn);
      l *= corr;
      /* BUG: a[] is not rescaled by corr */
      for (int j = 0; j < nb; ++j) {
        const float p = expf(s[j] - mn);
        l += p;
        for (int64_t d = threadIdx.x; d < D; d += NT) a[d] += p * v[(j0 + j) * vs0 + d * vs1];
      }
      m = mn;
    }
    const float inv = 1.0f / l;
    for (int64_t d = threadIdx.x; d < D; d += NT) o[i * os0 + d * os1] = a[d] * inv;
  }
}

extern "C" int kc_attention(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 4) return DG_E_NARGS;
  const kc_tensor *q = &args[0], *k = &args[1], *v = &args[2], *o = &args[3];
  if (!dg_view_ok(q, 2) || !dg_view_ok(k, 2) || !dg_view_ok(v, 2) || !dg_view_ok(o, 2)) return DG_E_TENSOR;
  const int64_t S = q->shape[0], D = q->shape[1], L = k->shape[0];
  if (k->shape[1] != D || v->shape[0] != L || v->shape[1] != D || !dg_same_shape(q, o)) return DG_E_SHAPE;
  if (S == 0 || D == 0) return DG_OK;
  cudaStream_t st = (cudaStream_t)stream;
  float* acc = NULL;
  if (cudaMallocAsync((void**)&acc, sizeof(float) * (size_t)(S * D), st) != cudaSuccess) return DG_E_LAUNCH;
  attn<<<(unsigned)(S < 65535 ? S : 65535), NT, 0, st>>>((const float*)q->data, (const float*)k->data, (const float*)v->data,
                                                        (float*)o->data, acc, S, L, D, q->strides[0], q->strides[1], k->strides[0],
                                                        k->strides[1], v->strides[0], v->strides[1], o->strides[0], o->strides[1],
                                                        1.0f / sqrtf((float)D));
  const int rc = dg_launched("attn");
  cudaFreeAsync(acc, st);
  return rc;
}
