#pragma once
// Where a check's time goes, phase by phase (bench/check_bench prints it): summed over every
// case and seed of a job. Only benchmarks ask for it (RunOptions::phases); nothing in a
// report depends on it.
#include <chrono>

namespace kc::run {

struct PhaseTimes {
  double setup = 0;     // the case's shapes and layouts (setupCase)
  double inputs = 0;    // generating every seed's input storage on the host
  double worker = 0;    // runInWorker: handing buffers over, the launches, the images back
  double oracle = 0;    // the f64 oracle, tolerance and preconditions
  double posts = 0;     // every postcondition of the case over every cell
  double judgeRest = 0; // the harness's checks, completeness, error scan, MISTRUSTED probes
  double control = 0;   // control runs of failing cases
  double batch = 0;     // the smaller batches of sub_batch cases (run/batch.h)
  double streamed = 0;  // seeds on the streamed path (run/big_case.h), in all
};

// Adds the seconds from its construction to its destruction to *into (nothing when null).
class PhaseTimer {
 public:
  explicit PhaseTimer(double* into) : into_(into), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() { stop(); }
  void stop() {
    if (into_) *into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    into_ = nullptr;
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double* into_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kc::run
