#pragma once
// Symbolic execution of one PTX launch (docs/ptx.md, "Symbolic mode"), over the engine's IR
// (backends/ptx/ptx_ir.h) with the concrete scheduler's semantics: CTAs one after another,
// warps of 32 in lockstep (the threads at the lowest program counter run together), barriers
// opening when every thread waits or has exited. Registers hold concrete bits or a node of
// the DAG (sym_dag.h). Integer and address arithmetic stays concrete; a value computed from
// the inputs reaching an address, an integer operation or a branch ends the run with
// SymUnknown, naming the PTX line. Loads of a contract input give one Input node per cell.
// Races and barrier findings are the concrete engine's business (check --backend ptx); here
// the memory model is sequential.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/ptx/ptx_cta.h"
#include "backends/ptx/ptx_ir.h"
#include "backends/ptx/ptx_memory.h"
#include "prover/kernel/sym_dag.h"

namespace kc::kprove {

// The run cannot go on symbolically: why, and where.
struct SymUnknown : std::runtime_error {
  SymUnknown(const std::string& why, int line) : std::runtime_error(why), line(line) {}
  int line;
};

// Concrete bits, or a DAG node (node >= 0).
struct SymVal {
  uint64_t bits = 0;
  int node = -1;
  bool symbolic() const { return node >= 0; }
};

// One contract tensor in host memory.
struct Region {
  uint64_t base = 0;
  uint64_t bytes = 0;
  int tensor = -1;       // index among the kernel's tensors
  bool input = false;
  uint32_t scalarMarker = 0;  // rank-0 f32 inputs: the bits the host passes on (a NaN payload)
};

class SymMachine {
 public:
  SymMachine(const ptx::Module& module, Dag& dag, std::vector<Region> regions, const ptx::Allocations* allocations,
             uint32_t poisonBits);
  // Runs every CTA of a launch. Throws SymUnknown.
  void launch(const ptx::Function& fn, ptx::Dim3 grid, ptx::Dim3 block, size_t dynamicShared, void** args);
  // The value of the 4-byte global cell at `address` now: what a store left, else the memory's
  // bits (Poison when they are the poison pattern).
  SymVal globalCell(uint64_t address) const;
  uint64_t instructions() const { return instructions_; }
  uint64_t instructionLimit = 200'000'000;

 private:
  struct Space {  // bytes plus the symbolic values stored over them (4-byte cells)
    std::vector<uint8_t> bytes;
    std::map<uint64_t, int> sym;  // offset -> node
  };
  enum State : uint8_t { Running, AtBarrier, Exited };

  void runCta(ptx::Dim3 ctaid);
  void step(uint32_t pc, const std::vector<uint32_t>& group);
  void execute(const ptx::Instr& in, uint32_t t, int guard);
  void shfl(const ptx::Instr& in, const std::vector<uint32_t>& group);
  SymVal value(const ptx::Operand& o, uint32_t t, ptx::Type type);
  void setReg(const ptx::Operand& o, uint32_t t, SymVal v, int guard);
  uint64_t address(const ptx::Instr& in, const ptx::Operand& o, uint32_t t);
  ptx::Space resolveSpace(ptx::Space space, uint32_t t, uint64_t& address) const;
  SymVal load(const ptx::Instr& in, uint32_t t, uint64_t address, int bytes);
  void store(const ptx::Instr& in, uint32_t t, uint64_t address, int bytes, SymVal v, int guard);
  int asNode(const ptx::Instr& in, SymVal v, ptx::Type type);  // a float value as a node
  SymVal merge(const ptx::Instr& in, int guard, SymVal now, SymVal before, ptx::Type type);
  [[noreturn]] void unknown(const ptx::Instr& in, const std::string& why) const;
  const Region* regionOf(uint64_t address) const;

  const ptx::Module& module_;
  Dag& dag_;
  std::vector<Region> regions_;
  const ptx::Allocations* allocations_;
  uint32_t poisonBits_;
  std::map<uint64_t, SymVal> global_;  // 4-byte cells stored by the kernel: address -> value
  uint64_t instructions_ = 0;

  // The launch and the CTA being run.
  const ptx::Function* fn_ = nullptr;
  ptx::Dim3 grid_, block_, ctaid_;
  std::vector<uint8_t> params_;
  size_t sharedBytes_ = 0;
  uint32_t threads_ = 0;
  size_t nregs_ = 0;
  std::vector<SymVal> regs_;
  std::vector<uint32_t> pc_;
  std::vector<State> state_;
  Space shared_, local_;
};

}  // namespace kc::kprove
