/* Shared by the CUDA calibration kernels that take f32, f16 and bf16: a load that widens to
 * f32 and a store that rounds once to the element type (round to nearest even). */
#ifndef KC_CAL_DTYPES_H
#define KC_CAL_DTYPES_H
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float ld(const float* p) { return *p; }
__device__ __forceinline__ float ld(const __half* p) { return __half2float(*p); }
__device__ __forceinline__ float ld(const __nv_bfloat16* p) { return __bfloat162float(*p); }
__device__ __forceinline__ void st(float* p, float v) { *p = v; }
__device__ __forceinline__ void st(__half* p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void st(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }
#endif
