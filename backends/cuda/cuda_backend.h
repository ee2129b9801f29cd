#pragma once
// The CUDA backend (docs/backends.md): kernels are .cu sources built with nvcc for the
// device's architecture into a cached shared library, or prebuilt .so files; buffers are
// device memory (cudaMalloc); the stream argument is a cudaStream_t the backend creates,
// non-blocking, so that it never synchronises with the legacy default stream or with a
// stream the kernel makes for itself.
//
// Process model. A CUDA context does not survive fork(), and a process that initialised
// CUDA (even cudaGetDeviceCount, which runs cuInit) leaves its forked children unable to
// use CUDA at all. The checker forks a worker per case (checker/run/worker.h), so the
// checker process itself must never touch CUDA: probe() and prepare() run their device
// queries in a short-lived child process (cuda_backend.cpp, queryDevice) and read the answer
// through a pipe; only the worker (load() onwards) creates a context, its own.
//
// Only the CUDA runtime API is used, from the static runtime, which loads the driver at
// run time: without a driver or a device probe() says so and every case is SKIPPED.
#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/device_noise.h"
#include "backends/kernel_library.h"

namespace kc::backend {

class CudaBackend : public Backend {
 public:
  std::string name() const override { return kCudaBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  // A context costs about a second on a large GPU: one worker runs the cases while they pass.
  bool reusesWorker() const override { return true; }
  void beginCase() override {
    launches_ = 0;
    freeAfterLaunch_.clear();
    freeBeforeLaunch_.clear();
  }
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  int launch(kc_tensor* args, int32_t nargs) override;
  void synchronize() override;
  void synchronizeDevice() override;
  bool hasStreams() const override { return true; }
  std::string fault() override;
  std::string resourceReport() override;
  bool separateMemory() const override { return true; }
  std::optional<uint64_t> deviceMemoryBytes() override;  // free memory at the probe (cudaMemGetInfo, in its child)
  // Device kernels (support/kc_cuda_support.cu, built by nvcc on first use and cached like a
  // kernel under test); a fill the device cannot reproduce bit for bit falls back to the
  // host's chunks (Backend's default).
  void fillGenerated(void* device, const GeneratedFill& g, size_t count) override;
  PatternCount countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                            size_t maxFirst) override;
  uint64_t compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) override;
  void copyDevice(void* to, const void* from, size_t bytes) override;
  void preparePerturbation() override;
  std::string setPerturbation(const std::string& kind) override { return noise_.configure(kind); }

  // The support kernels as a library for another process on this machine's GPU (the exec
  // backend's adaptor calls them on its own device memory): built, or found in the cache,
  // for the device's architecture. In the checker process. Throws BackendError.
  std::string supportLibraryForDevice();

  // The nvcc that prepare() runs: $CUDACXX, else /usr/local/cuda/bin/nvcc, else nvcc on PATH.
  static std::string nvccPath();

 private:
  // Nothing is released on destruction: in the checker process nothing was ever acquired (no
  // CUDA call runs there), and the worker leaves through _exit, which tears its context down.
  void copy(void* to, const void* from, size_t bytes, bool toDevice);
  void buildSupport(const std::string& arch);  // in the checker (prepare): compile the support kernels (cached)
  void loadSupport();  // in the worker: open them
  // A support call's result: throws BackendError for a CUDA error, records a device fault.
  bool supportOk(int rc, const char* what);

  void* support_ = nullptr;  // dlopen handle of the support library
  std::string supportLibrary_, supportError_;  // built by prepare() in the checker (buildSupport)
  void* fillFn_ = nullptr;
  void* countFn_ = nullptr;
  void* compareFn_ = nullptr;

  KernelLibrary kernel_;  // the kernel's library and its entry point
  void* stream_ = nullptr;            // cudaStream_t, created in load() (the worker)
  std::string pendingFault_;          // a sticky device error seen by a copy or a synchronize
  std::vector<size_t> freeAfterLaunch_;   // cudaMemGetInfo's free bytes after each launch (its last synchronize)
  std::vector<size_t> freeBeforeLaunch_;  // ... and right before each launch
  DeviceNoise noise_;                 // the perturbation around each launch (device_noise.h)
  int launches_ = 0;
};

// The device-memory leak rule, over cudaMemGetInfo's free bytes after each launch of one
// worker: "" unless free memory never grew back and fell by more than 1 MiB per launch
// after the first (the first may set up caches once, so it is the baseline). With the free
// bytes right before each launch too (as many), also unless every launch after the first
// took more than 1 MiB between its own two readings: the count is the whole device's, and
// another process allocating on the GPU (another kcontract job beside this one) shows
// between launches as often as within them, where a kernel that keeps memory shows in each.
std::string deviceMemoryLeakReport(const std::vector<size_t>& freeAfterLaunch,
                                   const std::vector<size_t>& freeBeforeLaunch = {});

}  // namespace kc::backend
