#pragma once
// What `kcontract check` and `kcontract replay` run: jobs (checker/check.h) built from a
// suite file, or from contract files / IDs and an --impl, or from --op (every contract under
// the search roots whose kernel implements the op).
#include <string>
#include <vector>

#include "checker/check.h"
#include "compiler/pipeline.h"

namespace kc::check {

struct JobOptions {
  std::vector<std::string> targets;  // FILE|ID|SUITE.yaml
  std::vector<std::string> includeDirs;
  std::string impl;     // PATH[:ENTRY]
  std::string op;       // --op NAME
  std::string backend;  // empty: the suite's, else host
  std::vector<std::string> bind;  // --bind INPUT=ATTR: module attributes of a Python-file kernel
};

// The kernel of `impl` (PATH[:ENTRY]); the entry is `entry` when given, else the one after the
// colon, else kc_<kernel name of the contract>.
backend::KernelRef kernelRef(const std::string& impl, const std::string& entry, const sema::ContractInfo& ct);

// Why jobs could not be built: `message` is one line for stderr. `located` messages start
// with FILE:LINE:COL (a malformed suite) and are printed as they are; the others follow the
// command's name ("kcontract check: "). An empty message: the diagnostics in c.diags say why.
struct JobError {
  std::string message;
  bool located = false;
};

// Compiles what the jobs need into `c` (the diagnostics stay in c.diags, for the caller to
// print) and fills `jobs`; a suite's include folders are added to o.includeDirs. False, with
// `error` set, when there is nothing to run.
bool buildJobs(Compilation& c, JobOptions& o, bool warningsAsErrors, std::vector<Job>& jobs, JobError& error);

}  // namespace kc::check
