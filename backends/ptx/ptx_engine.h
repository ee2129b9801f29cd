#pragma once
// The PTX engine's entry (docs/ptx.md): a parsed module, its .global/.const variables in
// host memory, and launches of its kernels over a whole grid, CTA after CTA (ptx_cta.h).
// The order of the CTAs (and of the warps inside each) depends on the launch's `order`: 0
// runs them in index order, odd numbers in reverse, others shuffled by it, so a kernel whose
// result depends on the order (atomics, races) shows it across repeated launches as it does
// on a GPU.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/ptx/ptx_cta.h"
#include "backends/ptx/ptx_ir.h"
#include "backends/ptx/ptx_memory.h"

namespace kc::ptx {

struct LaunchRequest {
  std::string kernel;        // the mangled entry name
  Dim3 grid, block;
  size_t dynamicShared = 0;
  void** args = nullptr;     // cudaLaunchKernel's: one pointer per parameter, to its value
  uint64_t order = 0;
  uint64_t instructionLimit = 0;  // 0: none
  bool checkRaces = true;
};

struct LaunchResult {
  std::string fault;      // the launch stopped: an illegal address, an unsupported instruction
  std::string race;       // the first data race ("" when none) and how many were seen
  uint64_t races = 0;
  std::string barrier;    // the first barrier or warp-synchronisation finding
  uint64_t instructions = 0;
};

class Engine {
 public:
  explicit Engine(Module module);
  const Module& module() const { return module_; }
  // The allocations the kernels may touch: add every device buffer here.
  Allocations& memory() { return memory_; }
  const Allocations& memory() const { return memory_; }
  // Runs the grid. Never throws for what the kernel does; a request that names no kernel of
  // the module, or a block of more than 1024 threads, is a fault too (as a launch error).
  LaunchResult launch(const LaunchRequest& request);

 private:
  Module module_;
  Allocations memory_;
  std::vector<std::unique_ptr<uint8_t[]>> globals_;  // .global / .const storage
  std::vector<uint64_t> symbolAddress_;
};

}  // namespace kc::ptx
