#pragma once
// The host backend: kernels are C or C++ sources built with the system compiler (cc / c++,
// -O2, the ABI header on the include path) into a cached shared library, or prebuilt .so
// files; buffers are host memory; the stream argument is NULL.
#include "backends/backend.h"
#include "backends/host/cpu_noise.h"

namespace kc::backend {

class HostBackend : public Backend {
 public:
  ~HostBackend() override;
  std::string name() const override { return kHostBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  void beginCase() override { launches_ = 0; }
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  int launch(kc_tensor* args, int32_t nargs) override;
  void synchronize() override {}
  std::string fault() override { return ""; }
  std::string setPerturbation(const std::string& kind) override { return noise_.configure(kind); }

 private:
  void* library_ = nullptr;
  kc_entry_fn entry_ = nullptr;
  CpuNoise noise_;   // competing threads around each launch (setPerturbation)
  int launches_ = 0;
};

}  // namespace kc::backend
