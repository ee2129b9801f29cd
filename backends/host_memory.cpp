#include "backends/host_memory.h"

#include <cstdlib>
#include <cstring>

namespace kc::backend {

void* HostMemoryBackend::allocate(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (!p) throw BackendError("out of host memory allocating " + std::to_string(bytes) + " bytes");
  return p;
}

void HostMemoryBackend::release(void* buffer) { std::free(buffer); }

void HostMemoryBackend::copyIn(void* device, const void* host, size_t bytes) { std::memcpy(device, host, bytes); }

void HostMemoryBackend::copyOut(void* host, const void* device, size_t bytes) { std::memcpy(host, device, bytes); }

void HostMemoryBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  auto* d = static_cast<uint8_t*>(device);
  size_t n = pattern.size();
  for (size_t i = 0; i + n <= bytes; i += n) std::memcpy(d + i, pattern.data(), n);
}

}  // namespace kc::backend
