#pragma once
// What `kcontract check` and `kcontract replay` run: jobs (checker/check.h) built from a
// suite file, or from contract files / IDs and an --impl, or from --op (every contract under
// the search roots whose kernel implements the op).
#include <string>
#include <vector>

#include "checker/check.h"
#include "compiler/driver/cli.h"
#include "compiler/pipeline.h"

namespace CLI {
class App;
}

namespace kc::driver {

struct JobOptions {
  std::vector<std::string> targets;  // FILE|ID|SUITE.yaml
  std::vector<std::string> includeDirs;
  std::string impl;     // PATH[:ENTRY]
  std::string op;       // --op NAME
  std::string backend;  // empty: the suite's, else host
};

void addJobOptions(CLI::App* sub, JobOptions& o);

// The kernel of `impl` (PATH[:ENTRY]); the entry is `entry` when given, else the one after the
// colon, else kc_<kernel name of the contract>.
backend::KernelRef kernelRef(const std::string& impl, const std::string& entry, const sema::ContractInfo& ct);

// Compiles what the jobs need into `c` (diagnostics printed) and fills `jobs`. Returns an
// exit code: kExitOk, or kExitInput after printing why.
int buildJobs(Compilation& c, JobOptions& o, const GlobalOptions& opts, std::vector<check::Job>& jobs);

}  // namespace kc::driver
