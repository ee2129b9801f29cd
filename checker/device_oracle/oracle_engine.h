#pragma once
// The oracle a check uses (check --oracle; docs/oracle.md, "The compiled oracle"): the f64
// interpreter, or the compiled oracle on the host or on the GPU, with the interpreter wherever
// the compiled one cannot run (a contract it cannot lower, a program that fails), and the
// result saying so. One engine per target serves every job of a check: programs are built
// once per contract and dtype binding, and run in one oracle server per target (a CUDA
// context must stay out of the checker; a host program that crashes takes down the server,
// not the check: the interpreter then runs).
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "checker/device_oracle/compiled_oracle.h"
#include "checker/device_oracle/oracle_server.h"
#include "checker/oracle/evaluator.h"

namespace kc::device_oracle {

class OracleEngine {
 public:
  OracleEngine(Target target, std::string arch) : target_(target), arch_(std::move(arch)) {}
  Target target() const { return target_; }

  // The oracle of one case through the compiled program; nullopt with `why` when it does not
  // apply or fails (the caller runs the interpreter). `seconds`: the program's own work.
  // `threads`: the host program's.
  std::optional<oracle::OracleResult> eval(const sema::ContractInfo& ct, const oracle::Bindings& b, std::string& why,
                                           double* seconds = nullptr, unsigned threads = 1);

 private:
  Target target_;
  std::string arch_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<CompiledOracle>> programs_;  // by contract and dtype binding
  OracleServer server_;
};

// check --oracle: interpreter | host | cuda | auto (cuda for jobs on the cuda backend when a
// GPU is there; the interpreter otherwise).
class OracleEngines {
 public:
  // "" when `choice` is one of the four; else the usage message.
  static std::string validate(const std::string& choice);
  // The engine for a job on `backend` under `choice`, created on first use; null for the
  // interpreter. `why` receives why a requested compiled oracle is not used (no GPU).
  OracleEngine* forJob(const std::string& choice, const std::string& backend, std::string& why);

 private:
  std::mutex mutex_;
  std::unique_ptr<OracleEngine> host_, cuda_;
  std::optional<std::string> cudaArch_;  // "" when no GPU
  std::string noGpu_;
};

}  // namespace kc::device_oracle
