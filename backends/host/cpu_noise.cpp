#include "backends/host/cpu_noise.h"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace kc::backend {

namespace {

constexpr size_t kBufferBytes = size_t{8} << 20;  // per thread: larger than a core's cache

int cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

// Streams over a private buffer until told to stop: cycles and memory bandwidth taken from
// the kernel, never its memory.
void churn(const std::atomic<bool>* running, uint64_t* buf) {
  uint64_t x = 0x9E3779B97F4A7C15ull;
  while (running->load(std::memory_order_relaxed))
    for (size_t i = 0; i < kBufferBytes / 8 && running->load(std::memory_order_relaxed); i += 8) {
      buf[i] += x;
      x = x * 6364136223846793005ull + buf[i];
    }
}

}  // namespace

int CpuNoise::threadsFor(const std::string& kind, int launchIndex, int n) {
  if (kind == perturb::kNoise) return n;
  if (kind == perturb::kOccupancy) {
    const int cycle[] = {1, n, 2 * n};
    return cycle[launchIndex % 3];
  }
  return 0;
}

std::string CpuNoise::configure(const std::string& kind) {
  kind_ = perturb::kNone;  // a reused worker's last run may have been perturbed
  if (kind == perturb::kNone) return "";
  if (kind == perturb::kLaunchOrder)
    return "not supported: a host kernel runs synchronously on the calling thread, so there is no launch order to vary; "
           "the repeats ran unperturbed";
  if (kind != perturb::kNoise && kind != perturb::kOccupancy) return "not supported: unknown perturbation '" + kind + "'";
  kind_ = kind;
  // Counts in words, not numbers: the report reads the same on every machine.
  if (kind == perturb::kNoise)
    return "noise: one competing host thread per hardware thread, each streaming over 8 MiB, during every repeat";
  return "occupancy: 1 competing host thread, then one per hardware thread, then two per hardware thread, in turn per repeat";
}

void CpuNoise::start(int launchIndex) {
  int n = threadsFor(kind_, launchIndex, cores());
  if (n == 0) return;
  while (buffers_.size() < static_cast<size_t>(n)) buffers_.emplace_back(new uint64_t[kBufferBytes / 8]());
  running_ = true;
  for (int t = 0; t < n; ++t) threads_.emplace_back(churn, &running_, buffers_[static_cast<size_t>(t)].get());
}

void CpuNoise::stop() {
  running_ = false;
  for (auto& t : threads_) t.join();
  threads_.clear();
}

}  // namespace kc::backend
