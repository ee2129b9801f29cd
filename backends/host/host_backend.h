#pragma once
// The host backend: kernels are C or C++ sources built with the system compiler (cc / c++,
// -O2, the ABI header on the include path) into a cached shared library, or prebuilt .so
// files; buffers are host memory; the stream argument is NULL.
#include "backends/host/cpu_noise.h"
#include "backends/host_memory.h"
#include "backends/kernel_library.h"

namespace kc::backend {

class HostBackend : public HostMemoryBackend {
 public:
  std::string name() const override { return kHostBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  void beginCase() override { launches_ = 0; }
  int launch(kc_tensor* args, int32_t nargs) override;
  std::string fault() override { return ""; }
  std::string setPerturbation(const std::string& kind) override { return noise_.configure(kind); }

 private:
  // The kernel's library and its entry point. Never closed: a kernel may have registered atexit
  // handlers or threads.
  KernelLibrary kernel_;
  CpuNoise noise_;   // competing threads around each launch (setPerturbation)
  int launches_ = 0;
};

}  // namespace kc::backend
