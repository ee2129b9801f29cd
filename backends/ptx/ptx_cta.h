#pragma once
// One CTA of a launch, interpreted in lockstep (docs/ptx.md, "Scheduler"): warps of 32
// threads in thread-index order; within a warp the threads at the lowest program counter
// run one instruction together (so a warp that diverges reconverges where its paths meet);
// a warp runs until each of its threads has exited or waits at bar.sync; when every warp
// is there, the barrier opens (one epoch ends) and the warps run again. Between two
// barriers, accesses of different threads to one address with at least one write are a data
// race (RaceShadow); a barrier that only some threads reach, warp operations whose member
// mask names a lane that is not there, and memory outside every allocation are findings
// naming the instruction. A memory fault stops the launch; races and barrier findings are
// recorded and the launch goes on (the first of each is reported).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/ptx/ptx_ir.h"
#include "backends/ptx/ptx_memory.h"

namespace kc::ptx {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

// A fault that ends the launch (the kernel would have crashed the GPU's context).
struct Fault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What all CTAs of one launch share.
struct LaunchState {
  const Module* module = nullptr;
  const Function* function = nullptr;
  Dim3 grid, block;
  std::vector<uint8_t> params;      // the parameter buffer (.param space)
  size_t sharedBytes = 0;           // static + dynamic
  Allocations* memory = nullptr;    // global memory the kernel may touch
  std::vector<uint64_t> symbolAddress;  // per module symbol: host address (global/const), else 0
  RaceShadow globalShadow;
  bool checkRaces = true;
  std::string race;                 // the first data race found ("" when none)
  uint64_t races = 0;
  std::string barrier;              // the first barrier / warp-synchronisation finding
  uint64_t instructions = 0;
  uint64_t instructionLimit = 0;    // 0: none; past it a Fault (a runaway kernel in a unit test)
};

class Cta {
 public:
  Cta(LaunchState& launch, Dim3 ctaid, uint32_t ctaLinear);
  // Runs every thread of the CTA to its end; `warpOrder` varies which warp runs first
  // between barriers and in which order a warp's atomics land (0: in order). Throws Fault.
  void run(uint64_t warpOrder);

 private:
  enum State : uint8_t { Running, AtBarrier, Exited };

  void runWarp(uint32_t warp);
  void step(uint32_t warp, uint32_t pc, const std::vector<uint32_t>& group);
  void execute(const Instr& in, uint32_t t);
  void warpOp(const Instr& in, const std::vector<uint32_t>& group);
  void openBarrier();

  uint64_t& reg(uint32_t t, int r) { return regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(r)]; }
  uint64_t value(const Operand& o, uint32_t t, Type type);
  void setReg(const Operand& o, uint32_t t, uint64_t v);
  uint64_t special(Special s, uint32_t t) const;
  uint64_t addressOf(const Operand& o, uint32_t t);  // an [address] operand's address in its space
  // The host bytes of an access, after the bounds and race checks.
  uint8_t* memory(const Instr& in, uint32_t t, uint64_t address, size_t bytes, bool write, bool atomic);
  uint64_t load(const Instr& in, uint32_t t, uint64_t address, int bytes);
  void store(const Instr& in, uint32_t t, uint64_t address, int bytes, uint64_t v);
  void atomic(const Instr& in, uint32_t t);
  std::string where(const Instr& in) const;           // "ld.global.f32 (line 57)"
  std::string threadName(uint32_t globalThread) const;  // "thread (3,0,0) of block (1,0,0)"
  void reportRace(const char* space, uint64_t address, const Instr& in, uint32_t t, const Race& r);

  LaunchState& L_;
  const Function& fn_;
  Dim3 ctaid_;
  uint32_t ctaLinear_;
  uint32_t threads_;
  size_t nregs_;
  std::vector<uint64_t> regs_;
  std::vector<uint32_t> pc_;
  std::vector<State> state_;
  std::vector<uint8_t> shared_;
  std::vector<uint8_t> local_;
  RaceShadow sharedShadow_;
  uint32_t epoch_ = 0;
  uint64_t order_ = 0;  // the launch's order (run's warpOrder): warps, and lanes of atomics
};

}  // namespace kc::ptx
