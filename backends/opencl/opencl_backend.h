#pragma once
// The OpenCL backend (docs/backends.md, "The OpenCL backend"). A kernel is a C or C++ host
// file with the ABI entry (kc_NAME(args, nargs, stream)), built like a host kernel but
// linked with libOpenCL and given -DKC_KERNEL_DIR="<its folder>", so that it can build the
// .cl program beside it at run time (include/kcontract/opencl.h helps); or a prebuilt .so.
// Each tensor's `data` is a cl_mem whose origin is the view's first element (a sub-buffer
// of the checker's buffer, canaries around it); `stream` is the cl_command_queue (in order)
// the kernel must enqueue on. Rank-0 scalars stay host pointers.
//
// Process model. Like the CUDA backend, the checker process never initialises OpenCL:
// PoCL starts worker threads on its first call, and a child forked afterwards has the
// runtime's state but not its threads: it hangs in OpenCL until killed. probe() asks
// its questions in a short-lived child (backends/child_query.h); each worker selects the
// device, creates the context and the queue in load().
//
// Device selection: $KC_OPENCL_DEVICE, a case-insensitive substring of "PLATFORM / DEVICE"
// (clinfo -l lists them); unset, the first GPU of any platform, else the first device.
#include <string>

#include "backends/backend.h"
#include "backends/kernel_library.h"

namespace kc::backend {

class OpenClBackend : public Backend {
 public:
  std::string name() const override { return kOpenClBackend; }
  bool byteAddressed() const override { return false; }  // cl_mem handles
  std::optional<uint64_t> deviceMemoryBytes() override;  // CL_DEVICE_GLOBAL_MEM_SIZE, from the probe child
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  void* view(void* buffer, size_t byteOffset) override;
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  int launch(kc_tensor* args, int32_t nargs) override;
  void synchronize() override;
  std::string fault() override;

 private:
  // Nothing is released on destruction: the worker leaves through _exit; the checker process
  // never created anything.
  KernelLibrary kernel_;  // the kernel's library and its entry point
  void* context_ = nullptr;   // cl_context, created in load() (the worker)
  void* queue_ = nullptr;     // cl_command_queue: the kernel's stream
  size_t align_ = 128;        // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: sub-buffer origins
  std::string pendingFault_;  // an error seen by clFinish or a copy after a launch
};

}  // namespace kc::backend
