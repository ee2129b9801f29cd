#pragma once
// The host backend's perturbation (docs/checking.md, "Perturbation"): threads that compete
// with a host kernel for cores and memory bandwidth while it runs, so a multithreaded
// kernel whose result depends on how its threads are scheduled shows it. A host kernel runs
// synchronously on the calling thread, so there is no launch order to vary: launch_order is
// reported as not supported.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backends/perturbations.h"

namespace kc::backend {

class CpuNoise {
 public:
  ~CpuNoise() { stop(); }
  // Chooses the perturbation; returns the report line (setPerturbation's contract).
  std::string configure(const std::string& kind);
  // Around each launch: start competitors sized for the launch's index, then stop them.
  void start(int launchIndex);
  void stop();

  // Competing threads for launch `launchIndex` (0-based) under `kind`, on a machine with
  // `cores` hardware threads: noise always `cores`; occupancy cycles 1, cores, 2 * cores.
  static int threadsFor(const std::string& kind, int launchIndex, int cores);

 private:
  std::string kind_ = perturb::kNone;
  std::atomic<bool> running_{false};
  std::vector<std::thread> threads_;
  std::vector<std::unique_ptr<uint64_t[]>> buffers_;  // one per competitor, kept across launches
};

}  // namespace kc::backend
