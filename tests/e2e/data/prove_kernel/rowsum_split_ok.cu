/* std.cal.rowsum on CUDA, conforming twin of rowsum_split_overwrite.cu: with few rows each
 * row is split in two halves over gridDim.y, and the halves' sums are added into y (zeroed
 * first) with atomicAdd. */
#include "../../../../contracts/calibration/cuda/cal_cuda.h"

enum { THREADS = 64 };

__global__ void rowsum_split(const float* x, float* y, int64_t R, int64_t H, int64_t slice, int64_t xr,
                             int64_t xh, int64_t ys) {
  __shared__ float part[THREADS];
  const int64_t r = blockIdx.x, h0 = (int64_t)blockIdx.y * slice;
  float acc = 0.0f;
  for (int64_t h = h0 + threadIdx.x; h < H && h < h0 + slice; h += blockDim.x) acc += x[r * xr + h * xh];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int w = THREADS / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&y[r * ys], part[0]);
}

extern "C" int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (R == 0) return 0;
  if (R > 65535) return 2;
  for (int64_t r = 0; r < R; ++r) cudaMemsetAsync((float*)args[1].data + r * args[1].strides[0], 0, sizeof(float), (cudaStream_t)stream);
  const int64_t splits = R < 64 && H >= 2 ? 2 : 1, slice = (H + splits - 1) / splits;
  dim3 grid((unsigned)R, (unsigned)splits);
  rowsum_split<<<grid, THREADS, 0, (cudaStream_t)stream>>>((const float*)args[0].data, (float*)args[1].data, R, H, slice,
                                                          args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  return cal_launched("rowsum_split_ok");
}
