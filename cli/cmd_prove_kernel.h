#pragma once
// prove --kernel (cmd_prove_kernel.cpp): the kernel's PTX held to the contract symbolically.
#include <string>

#include "cli/cli.h"
#include "cli/output.h"

namespace kc::driver {

struct ProveKernelOptions {
  std::string kernel;  // --kernel K.cu
  std::string dims;    // --dims M=2,K=7
  std::string dtype = "f32";
  std::string cex;     // --cex FILE: where a counterexample goes
  std::string smt2;    // --smt2 DIR
  double timeout = 10;
  bool json = false;
  bool noProbes = false;  // --no-probes: no concrete probes when the solver has no answer
  bool noIdioms = false;  // --no-idioms: no summation idioms (prover/kernel/sym_dag.h)
};

int runProveKernel(const ProveKernelOptions& cmd, const InputOptions& in, const GlobalOptions& opts);

}  // namespace kc::driver
