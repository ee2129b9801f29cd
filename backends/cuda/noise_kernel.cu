// The CUDA backend's noise kernel (docs/checking.md, "Perturbation"). Built by nvcc at check
// time into a cached shared library, like a kernel under test (backends/cuda/device_noise.cpp),
// and loaded by the worker: it runs on a stream of its own, concurrently with the kernel's
// repeats, taking SMs and memory bandwidth so that results that depend on the schedule
// (atomicAdd orders, block timing) come out differently from run to run.
//
// C entry points (the library's own CUDA runtime, sharing the device's primary context):
//   kc_noise_init(bytes, &sms, err, errSize)   stream + a private buffer (once); the SM count
//   kc_noise_launch(blocks, threads, passes)    one noise launch on the noise stream
//   kc_noise_sync()                             waits for every noise launch
// Each returns 0, or a cudaError_t with its message in `err` (init) or kc_noise_error().
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

namespace {

cudaStream_t gStream = nullptr;
float4* gBuffer = nullptr;
size_t gCount = 0;  // float4 elements
char gError[256] = {};

int fail(cudaError_t e, const char* what) {
  snprintf(gError, sizeof gError, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
  return static_cast<int>(e);
}

// Memory-bound work: every block streams over its share of the buffer `passes` times
// (grid-stride), a few flops per element so the loads cannot be skipped.
__global__ void noiseKernel(float4* buf, size_t n, int passes) {
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
      float4 v = buf[i];
      v.x = v.x * 0.999f + 1.0f;
      v.y = v.y * 0.999f + v.x;
      v.z = v.z * 0.999f + v.y;
      v.w = v.w * 0.999f + v.z;
      buf[i] = v;
    }
}

}  // namespace

extern "C" {

const char* kc_noise_error() { return gError; }

int kc_noise_init(size_t bytes, int* sms, char* err, size_t errSize) {
  int rc = 0;
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
  if (e != cudaSuccess) rc = fail(e, "cannot query the device");
  // A worker reused across cases (checker/run/worker.h) initialises once per process.
  if (rc == 0 && gStream && gBuffer && gCount == bytes / sizeof(float4)) return 0;
  // Non-blocking: the noise never waits for the kernel's streams, nor they for it.
  if (rc == 0 && (e = cudaStreamCreateWithFlags(&gStream, cudaStreamNonBlocking)) != cudaSuccess)
    rc = fail(e, "cannot create the noise stream");
  gCount = bytes / sizeof(float4);
  if (rc == 0 && (e = cudaMalloc(&gBuffer, gCount * sizeof(float4))) != cudaSuccess)
    rc = fail(e, "cannot allocate the noise buffer");
  if (rc == 0 && (e = cudaMemsetAsync(gBuffer, 0, gCount * sizeof(float4), gStream)) != cudaSuccess)
    rc = fail(e, "cannot clear the noise buffer");
  if (rc == 0 && (e = cudaStreamSynchronize(gStream)) != cudaSuccess) rc = fail(e, "cannot clear the noise buffer");
  if (rc != 0 && err && errSize > 0) {
    strncpy(err, gError, errSize - 1);
    err[errSize - 1] = '\0';
  }
  return rc;
}

int kc_noise_launch(int blocks, int threads, int passes) {
  noiseKernel<<<blocks, threads, 0, gStream>>>(gBuffer, gCount, passes);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? 0 : fail(e, "the noise launch failed");
}

int kc_noise_sync() {
  cudaError_t e = cudaStreamSynchronize(gStream);
  return e == cudaSuccess ? 0 : fail(e, "waiting for the noise failed");
}

}  // extern "C"
