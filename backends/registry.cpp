#include <memory>

#include "backends/backend.h"
#include "backends/exec/exec_backend.h"
#include "backends/host/host_backend.h"
#include "backends/ptx/ptx_backend.h"
#ifdef KC_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif
#ifdef KC_HAVE_OPENCL
#include "backends/opencl/opencl_backend.h"
#endif

namespace kc::backend {

namespace {

// A backend this kcontract was built without: every case on it is SKIPPED with the reason.
class AbsentBackend : public Backend {
 public:
  AbsentBackend(std::string name, std::string reason) : name_(std::move(name)), reason_(std::move(reason)) {}
  std::string name() const override { return name_; }
  Availability probe() override { return {false, reason_, ""}; }
  Prepared prepare(const KernelRef&) override { throw BackendError(reason_); }
  void load(const Prepared&, const std::string&) override { throw BackendError(reason_); }
  void* allocate(size_t) override { throw BackendError(reason_); }
  void release(void*) override {}
  void copyIn(void*, const void*, size_t) override { throw BackendError(reason_); }
  void copyOut(void*, const void*, size_t) override { throw BackendError(reason_); }
  void fill(void*, const std::vector<uint8_t>&, size_t) override { throw BackendError(reason_); }
  int launch(kc_tensor*, int32_t) override { throw BackendError(reason_); }
  void synchronize() override {}
  std::string fault() override { return ""; }

 private:
  std::string name_, reason_;
};

}  // namespace

std::vector<std::string> backendNames() { return {kBackendNames.begin(), kBackendNames.end()}; }

std::unique_ptr<Backend> makeBackend(const std::string& name) {
  if (name == kHostBackend) return std::make_unique<HostBackend>();
  if (name == kExecBackend) return std::make_unique<ExecBackend>();
  if (name == kPtxBackend) return std::make_unique<PtxBackend>();
#ifdef KC_HAVE_CUDA
  if (name == kCudaBackend) return std::make_unique<CudaBackend>();
#else
  if (name == kCudaBackend)
    return std::make_unique<AbsentBackend>(name, "the cuda backend is not built into this kcontract (CMake found no CUDA "
                                                 "toolkit when it was built)");
#endif
#ifdef KC_HAVE_OPENCL
  if (name == kOpenClBackend) return std::make_unique<OpenClBackend>();
#else
  if (name == kOpenClBackend)
    return std::make_unique<AbsentBackend>(name, "the opencl backend is not built into this kcontract (CMake found no "
                                                 "OpenCL headers and library when it was built)");
#endif
  return std::make_unique<AbsentBackend>(name, "the " + name + " backend is not built into this kcontract yet");
}

}  // namespace kc::backend
