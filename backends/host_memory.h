#pragma once
// The buffers of a backend whose kernels see plain host memory (host, exec): 64-byte aligned
// allocations, memcpy for the copies, the pattern written in place for fills.
#include "backends/backend.h"

namespace kc::backend {

class HostMemoryBackend : public Backend {
 public:
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  void synchronize() override {}
};

}  // namespace kc::backend
