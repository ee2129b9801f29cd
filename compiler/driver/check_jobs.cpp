#include "compiler/driver/check_jobs.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "compiler/driver/output.h"
#include "compiler/driver/targets.h"

namespace kc::driver {

namespace fs = std::filesystem;

namespace {

int fail(const std::string& message) {
  std::cerr << "kcontract check: " << message << "\n";
  return kExitInput;
}

// The contracts (not classes) a compiled file declares, in order.
std::vector<const sema::ContractInfo*> contractsOf(const Compilation& c, uint32_t fileId, const Targets& chosen) {
  std::vector<const sema::ContractInfo*> out;
  for (const auto& ct : c.program->contracts)
    if (!ct->isClass && ct->range.file == fileId && ct->kernel && isChosen(chosen, ct->id)) out.push_back(ct.get());
  return out;
}

std::string fileOf(const Compilation& c, const sema::ContractInfo& ct) {
  return c.sources.has(ct.range.file) ? c.sources.file(ct.range.file).path() : "";
}

// `--op NAME` or a suite's `op: NAME`: the op's standard contract ID, or "" after printing
// the known ops.
std::string opContract(const std::string& op, const std::vector<std::string>& includeDirs, const std::string& where) {
  std::vector<std::string> known = standardOps(includeDirs);
  std::string id = opContractId(op);
  std::string name = id.substr(std::string("std.op.").size());
  if (std::find(known.begin(), known.end(), name) != known.end()) return id;
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  std::cerr << "kcontract check: " << where << "unknown op '" << op << "'; the standard ops are: "
            << (list.empty() ? "(none found)" : list) << "\n";
  return "";
}

}  // namespace

backend::KernelRef kernelRef(const std::string& impl, const std::string& entry, const sema::ContractInfo& ct) {
  backend::KernelRef k;
  k.path = impl;
  size_t colon = impl.rfind(':');
  if (colon != std::string::npos && colon + 1 < impl.size() && impl.find('/', colon) == std::string::npos) {
    k.path = impl.substr(0, colon);
    k.entry = impl.substr(colon + 1);
  }
  if (!entry.empty()) k.entry = entry;
  // A contract whose scope is an op (std.ops.softmax) checks kc_softmax.
  if (k.entry.empty()) k.entry = "kc_" + ct.kernel->name.substr(ct.kernel->name.rfind('.') + 1);
  return k;
}

void addJobOptions(CLI::App* sub, JobOptions& o) {
  sub->add_option("targets", o.targets, "Contract files, contract IDs, or a suite .yaml");
  sub->add_option("-I,--include", o.includeDirs, "Another folder to search for imports and contract IDs");
  sub->add_option("--impl", o.impl, "The kernel to check: PATH[:ENTRY] (.c, .cpp, .so; ENTRY defaults to kc_<kernel>)");
  sub->add_option("--op", o.op, "Check --impl against every contract whose kernel implements this op");
  sub->add_option("--backend", o.backend, "host (default), cuda, opencl or exec");
}

int buildJobs(Compilation& c, JobOptions& o, const GlobalOptions& opts, std::vector<check::Job>& jobs) {
  std::vector<std::string> suites, contracts;
  for (const auto& t : o.targets) (check::isSuitePath(t) ? suites : contracts).push_back(t);
  if (suites.size() > 1 || (!suites.empty() && !contracts.empty()))
    return fail("give one suite file, or contract files and IDs, not both");
  if (suites.empty() && o.op.empty() && contracts.empty())
    return fail("nothing to check: give a suite .yaml, contract files or IDs with --impl, or --op NAME --impl PATH");

  if (!suites.empty()) {
    check::Suite suite;
    try {
      suite = check::loadSuite(suites[0]);
    } catch (const check::SuiteError& e) {
      std::cerr << e.what() << "\n";
      return kExitInput;
    }
    InputOptions in;
    in.includeDirs = o.includeDirs;
    in.includeDirs.insert(in.includeDirs.end(), suite.includeDirs.begin(), suite.includeDirs.end());
    o.includeDirs = in.includeDirs;
    for (auto& k : suite.kernels) {
      if (!k.op.empty()) {
        k.contract = opContract(k.op, o.includeDirs, suites[0] + ":" + std::to_string(k.line) + ": ");
        if (k.contract.empty()) return kExitInput;
      }
      if (std::find(in.targets.begin(), in.targets.end(), k.contract) == in.targets.end()) in.targets.push_back(k.contract);
    }
    Targets chosen;
    if (!compileInputs(c, in, opts, Stage::Sema, chosen)) return kExitInput;
    for (const auto& k : suite.kernels) {
      std::vector<const sema::ContractInfo*> cts;
      if (looksLikeContractId(k.contract)) {
        for (const auto& ct : c.program->contracts)
          if (!ct->isClass && (ct->id == k.contract || ct->id.substr(0, ct->id.find('@')) == k.contract)) cts.push_back(ct.get());
      } else {
        for (size_t i = 0; i < chosen.files.size(); ++i)
          if (chosen.files[i] == k.contract && c.fileIds[i]) cts = contractsOf(c, c.fileIds[i], Targets{});
      }
      if (cts.empty())
        return fail(suites[0] + ":" + std::to_string(k.line) + ": '" + k.contract + "' declares no contract with a kernel");
      for (const auto* ct : cts) {
        check::Job j;
        j.label = k.name;
        j.contract = ct;
        j.contractFile = fileOf(c, *ct);
        j.contractLine = ct->range.begin.line;
        j.kernel = kernelRef(k.impl, k.entry, *ct);
        j.backend = o.backend.empty() ? k.backend : o.backend;
        j.supports = k.supports;
        j.expect = k.expect;
        jobs.push_back(std::move(j));
      }
    }
    return kExitOk;
  }

  if (o.impl.empty()) return fail("--impl PATH[:ENTRY] names the kernel to check against the contracts");
  InputOptions in;
  in.targets = contracts;
  in.includeDirs = o.includeDirs;
  if (!o.op.empty()) {
    // The op's standard contract (stdlib/ops/NAME.kcontract), with every class it applies.
    std::string id = opContract(o.op, o.includeDirs, "");
    if (id.empty()) return kExitInput;
    in.targets.push_back(id);
  }
  Targets chosen;
  if (!compileInputs(c, in, opts, Stage::Sema, chosen)) return kExitInput;
  for (size_t i = 0; i < c.fileIds.size(); ++i)
    for (const auto* ct : contractsOf(c, c.fileIds[i], chosen)) {
      check::Job j;
      j.label = o.impl;
      j.contract = ct;
      j.contractFile = fileOf(c, *ct);
      j.contractLine = ct->range.begin.line;
      j.kernel = kernelRef(o.impl, "", *ct);
      j.backend = o.backend.empty() ? "host" : o.backend;
      jobs.push_back(std::move(j));
    }
  if (jobs.empty()) return fail("the contracts given declare no contract with a kernel to check");
  return kExitOk;
}

}  // namespace kc::driver
