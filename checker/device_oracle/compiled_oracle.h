#pragma once
// A contract's oracle and tolerance compiled from the IR (lower.h) and run: built once per
// contract and dtype binding, cached like kernels (backends/host/compile_cache.h), opened,
// and evaluated like oracle::evalOracle with the same answer (docs/oracle.md, "The compiled
// oracle").
//
// Two targets: `cuda` (nvcc; the work on the GPU, only the definitions' values come back) and
// `host` (the host compiler; the same text, cells in a loop). The host target is how CI,
// without a GPU, holds the lowering to the interpreter bit for bit.
//
// The program runs in this process, or in an oracle server (oracle_server.h): a CUDA program
// creates a CUDA context in the process that calls it, and a process that forks workers
// afterwards (kcontract check) must not hold one.
#include <map>
#include <memory>
#include <string>

#include "checker/device_oracle/lower.h"
#include "checker/oracle/evaluator.h"

namespace kc::device_oracle {

class OracleServer;

enum class Target { Host, Cuda };
const char* targetName(Target t);

class CompiledOracle {
 public:
  // Lowers and builds; never throws. ok() is false, with why(), when the contract cannot be
  // lowered or the program does not build (the compiler's output) or load.
  // `arch`: the CUDA architecture to build for ("sm_90"); ignored for the host.
  static std::unique_ptr<CompiledOracle> build(const sema::ContractInfo& ct,
                                               const std::map<std::string, numerics::DType>& dtypes, Target target,
                                               const std::string& arch = "");
  ~CompiledOracle();
  CompiledOracle(const CompiledOracle&) = delete;
  CompiledOracle& operator=(const CompiledOracle&) = delete;

  bool ok() const { return run_ != nullptr; }
  const std::string& why() const { return why_; }
  bool cached() const { return cached_; }         // the library came from the cache
  const Lowered& lowered() const { return low_; }
  const std::string& library() const { return library_; }

  // Every definition of the oracle, then of the tolerance, as oracle::evalOracle computes
  // them. Throws oracle::EvalError when the program reports an error in a cell (an integer
  // overflow, a read outside a tensor) or the device fails: the caller runs the interpreter,
  // which names the cell. `seconds` receives the time of the program's own work (on CUDA:
  // kernels and copies). With a server, the program runs there (oracle_server.h), not here.
  // `threads`: the host program's threads.
  oracle::OracleResult eval(const oracle::Bindings& b, double* seconds = nullptr, OracleServer* server = nullptr,
                            unsigned threads = 1) const;

 private:
  CompiledOracle() = default;
  const sema::ContractInfo* ct_ = nullptr;
  Target target_ = Target::Host;
  Lowered low_;
  std::string why_;
  std::string library_;
  bool cached_ = false;
  void* handle_ = nullptr;
  void* run_ = nullptr;
};

}  // namespace kc::device_oracle
