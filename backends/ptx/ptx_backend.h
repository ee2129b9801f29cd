#pragma once
// The ptx backend (docs/ptx.md, docs/backends.md): CUDA kernels (.cu) run on the CPU, no GPU
// and no CUDA driver needed, only nvcc. prepare() builds two things with nvcc: the kernel's
// PTX (nvcc -ptx -arch=sm_90) and its host code as a library (-cudart none) linked with the
// runtime shim of runtime/kc_ptx_runtime.cpp. In the worker, load() parses the PTX into the
// engine (ptx_engine.h) and installs the shim's hooks, so that every <<<>>> launch of the
// host code runs in the interpreter. Buffers are host memory the engine knows; an access
// outside them, a data race, or a barrier only some threads reach is the case's fault (CRASH),
// naming the instruction and the threads.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/host_memory.h"
#include "backends/kernel_library.h"
#include "backends/ptx/ptx_engine.h"
#include "backends/ptx/ptx_lazy_memory.h"

namespace kc::backend {

inline constexpr char kPtxArch[] = "sm_90";  // what the PTX is generated for (docs/ptx.md)
// The most of its lazy buffers one streamed case may make real (docs/ptx.md, "Large cases"):
// far more than the interpreter writes within any --timeout.
inline constexpr uint64_t kLazyLimitBytes = 4ull << 30;

class PtxBackend : public HostMemoryBackend {
 public:
  PtxBackend();
  ~PtxBackend() override;
  std::string name() const override { return kPtxBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  void beginCase() override;
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  // On the streamed case path (useDeviceMemory) every buffer is lazy (ptx_lazy_memory.h):
  // reserved, and made real only where the kernel or a copy-out touches it; the fills,
  // copies and checks below work on what each chunk holds without making it real.
  void useDeviceMemory() override;
  bool separateMemory() const override { return true; }
  bool interprets() const override { return true; }
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  void fillGenerated(void* device, const GeneratedFill& g, size_t count) override;
  PatternCount countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                            size_t maxFirst) override;
  void copyDevice(void* to, const void* from, size_t bytes) override;
  uint64_t compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) override;
  int launch(kc_tensor* args, int32_t nargs) override;
  void synchronize() override;
  void synchronizeDevice() override;
  bool hasStreams() const override { return true; }
  std::string fault() override { return fault_; }
  std::string resourceReport() override;
  std::string setPerturbation(const std::string& kind) override;

  // The shim's requests (runtime/kc_ptx_hooks.h), public for its C trampolines.
  int launchKernel(const char* kernel, const unsigned grid[3], const unsigned block[3], size_t shared, void** args,
                   void* stream);
  int runQueued(void* stream, bool all);
  void allocated(void* p, size_t bytes);
  void freed(void* p);
  // The host code's cudaMemcpy and cudaMemset, so that lazy buffers are read and written
  // through what their chunks hold.
  void copyBytes(void* to, const void* from, size_t bytes);
  void setBytes(void* p, int value, size_t bytes);
  int stickyError() const { return fault_.empty() ? 0 : 700; }  // cudaErrorIllegalAddress

  // Symbolic mode (prover/kernel, docs/ptx.md "Symbolic mode"): when set, every launch that
  // passes the launch checks goes to this function instead of the interpreter (streams are
  // not queued: it runs at once). Its return value is the launch's cudaError.
  using LaunchInterceptor = std::function<int(const ptx::Function& fn, ptx::Dim3 grid, ptx::Dim3 block, size_t shared,
                                              void** args)>;
  void interceptLaunches(LaunchInterceptor f) { intercept_ = std::move(f); }
  // The parsed module (after load()).
  const ptx::Module* module() const { return engine_ ? &engine_->module() : nullptr; }
  // The engine's allocations (the checker's buffers and the kernel's cudaMalloc'd memory).
  const ptx::Allocations* allocations() const { return engine_ ? &engine_->memory() : nullptr; }

 private:
  struct Pending {  // a launch on a stream the kernel created, run when that stream is synchronised
    std::string kernel;
    ptx::Dim3 grid, block;
    size_t shared = 0;
    std::vector<std::vector<uint8_t>> args;
    void* stream = nullptr;
  };
  int run(const std::string& kernel, ptx::Dim3 grid, ptx::Dim3 block, size_t shared, void** args);

  std::unique_ptr<ptx::Engine> engine_;
  std::unique_ptr<ptx::LazyMemory> lazy_;  // the streamed case path's buffers
  LaunchInterceptor intercept_;
  KernelLibrary kernel_;
  char streamToken_ = 0;  // the checker's stream, as the kernel sees it
  std::vector<Pending> pending_;
  std::string fault_;
  uint64_t launches_ = 0;     // kernel launches of this case
  int entryCalls_ = 0;        // calls of the entry in this case: the order of their CTAs
  size_t shimBytes_ = 0;      // bytes the kernel's host code holds through cudaMalloc
  std::map<void*, size_t> shimAllocations_;
  std::vector<size_t> heldAfterLaunch_;
};

}  // namespace kc::backend
