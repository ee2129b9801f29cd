#pragma once
// The CUDA backend's perturbation (docs/checking.md, "Perturbation"): a memory-bound noise
// kernel (backends/cuda/noise_kernel.cu) on a stream of its own, launched around the
// kernel's repeats. Plain C++ with no CUDA headers: the noise library carries its own CUDA
// runtime and is reached through dlopen, like a kernel under test.
//   noise         every repeat: noise launched just before the kernel, 16 blocks per SM
//   launch_order  the repeats cycle: noise before the kernel, noise right after it, none
//   occupancy     the repeats cycle the noise's size: 1, 4, 16 blocks per SM (256 threads)
#include <string>

#include "backends/perturbations.h"

namespace kc::backend {

// What the noise does around one launch.
struct NoiseStep {
  bool before = false;  // launched before the kernel's entry is called
  bool after = false;   // launched right after the entry returns (its work still running)
  int blocks = 0;       // blocks of 256 threads
};

// The step for launch `launchIndex` (0-based) under `kind` on a device with `sms` SMs.
NoiseStep noiseStep(const std::string& kind, int launchIndex, int sms);

class DeviceNoise {
 public:
  // In the checker process: builds the noise library for `arch` with `nvcc` (cached). Never
  // throws; a failure is kept and reported by configure().
  void prepare(const std::string& nvcc, const std::string& arch);
  // In the worker: loads the library and sets the noise up; returns the report line.
  std::string configure(const std::string& kind);
  void before(int launchIndex);
  void after(int launchIndex);

 private:
  void launch(const NoiseStep& s);

  std::string library_;
  std::string prepareError_ = "the noise kernel was not built";
  std::string kind_ = perturb::kNone;
  int sms_ = 0;
  int (*launch_)(int, int, int) = nullptr;
  const char* (*error_)() = nullptr;
};

}  // namespace kc::backend
