#include "backends/streamed_ops.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "backends/backend.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/numerics/rounding.h"

namespace kc::backend {

void encodeElement(numerics::DType t, double v, uint8_t* out) {
  size_t eb = static_cast<size_t>(numerics::sizeBytes(t));
  if (numerics::isFloat(t)) {
    uint64_t bits = numerics::encode(t == numerics::DType::TF32 ? numerics::DType::F32 : t, v);
    std::memcpy(out, &bits, eb);  // little endian: the low bytes hold the element
  } else {
    int64_t x = static_cast<int64_t>(numerics::roundTo(t, v));
    std::memcpy(out, &x, eb);
  }
}

void Backend::fillGenerated(void* device, const GeneratedFill& g, size_t count) {
  size_t eb = static_cast<size_t>(numerics::sizeBytes(g.dtype));
  size_t chunk = std::min(count, kStreamChunkElements);
  std::vector<double> cells(chunk);
  std::vector<uint8_t> bytes(chunk * eb);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  for (size_t done = 0; done < count; done += chunk) {
    size_t n = std::min(chunk, count - done);
    std::span<double> part(cells.data(), n);
    // The same per-cell function as values::fill, keyed directly (fill takes a seed).
    auto work = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) part[i] = values::cellValue(g.spec, g.dtype, g.key, g.firstIndex + done + i);
    };
    std::vector<std::thread> pool;
    for (unsigned p = 1; p < threads; ++p) pool.emplace_back(work, n * p / threads, n * (p + 1) / threads);
    work(0, n / threads);
    for (auto& t : pool) t.join();
    for (size_t i = 0; i < n; ++i) encodeElement(g.dtype, part[i], bytes.data() + i * eb);
    copyIn(static_cast<uint8_t*>(device) + done * eb, bytes.data(), n * eb);
  }
}

PatternCount Backend::countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                                   size_t maxFirst) {
  PatternCount out;
  size_t eb = pattern.size();
  if (eb == 0) return out;
  std::vector<uint8_t> bytes(std::min(count, kStreamChunkElements) * eb);
  for (size_t done = 0; done < count; done += kStreamChunkElements) {
    size_t n = std::min(kStreamChunkElements, count - done);
    copyOut(bytes.data(), static_cast<const uint8_t*>(device) + done * eb, n * eb);
    for (size_t i = 0; i < n; ++i)
      if (std::memcmp(bytes.data() + i * eb, pattern.data(), eb) == 0) {
        ++out.count;
        if (out.first.size() < maxFirst) out.first.push_back(done + i);
      }
  }
  return out;
}

void Backend::copyDevice(void* to, const void* from, size_t bytes) {
  std::vector<uint8_t> chunk(std::min(bytes, kStreamChunkElements * 4));
  for (size_t done = 0; done < bytes; done += chunk.size()) {
    size_t n = std::min(chunk.size(), bytes - done);
    copyOut(chunk.data(), static_cast<const uint8_t*>(from) + done, n);
    copyIn(static_cast<uint8_t*>(to) + done, chunk.data(), n);
  }
}

uint64_t Backend::compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) {
  uint64_t differ = 0;
  size_t eb = elementBytes;
  std::vector<uint8_t> x(std::min(count, kStreamChunkElements) * eb), y(x.size());
  for (size_t done = 0; done < count; done += kStreamChunkElements) {
    size_t n = std::min(kStreamChunkElements, count - done);
    copyOut(x.data(), static_cast<const uint8_t*>(a) + done * eb, n * eb);
    copyOut(y.data(), static_cast<const uint8_t*>(b) + done * eb, n * eb);
    for (size_t i = 0; i < n; ++i) differ += std::memcmp(x.data() + i * eb, y.data() + i * eb, eb) != 0;
  }
  return differ;
}

}  // namespace kc::backend
