#include "checker/jobs.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "backends/backend_names.h"
#include "compiler/targets.h"

namespace kc::check {

namespace fs = std::filesystem;

namespace {

// The targets and folders one compilation is asked for.
struct CompileInputs {
  std::vector<std::string> targets;
  std::vector<std::string> includeDirs;
};

// "host, cuda, opencl, exec or ptx".
std::string backendChoices() {
  std::string s = backend::backendNamesText();
  size_t last = s.rfind(" and ");
  return last == std::string::npos ? s : s.replace(last, 5, " or ");
}

bool fail(JobError& error, const std::string& message) {
  error.message = message;
  return false;
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

// `--op NAME` or a suite's `op: NAME`: the op's standard contract ID at its newest version
// (std.op.matmul@2 where @1 is kept beside it), or "" with `error` naming the known ops.
std::string opContract(const std::string& op, const std::vector<std::string>& includeDirs, const std::string& where,
                       JobError& error) {
  std::vector<std::string> known = standardOps(includeDirs);
  // A version pins it: `--op matmul@1` or `--op std.op.matmul@1`.
  size_t at = op.find('@');
  std::string bare = op.substr(0, at), version = at == std::string::npos ? "" : op.substr(at);
  if (bare.starts_with("std.op.")) bare = bare.substr(7);
  std::string id = opContractId(bare);
  std::string name = id.substr(std::string("std.op.").size());
  if (std::find(known.begin(), known.end(), name) != known.end()) {
    if (!version.empty()) return id + version;  // an unknown version: resolving the ID says so
    std::string newest = newestContractId(id, includeDirs);
    return newest.empty() ? id : newest;
  }
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  error.message = where + "unknown op '" + op + "'; the standard ops are: " + (list.empty() ? "(none found)" : list);
  return "";
}

}  // namespace

// Without --backend: host, except for the kernels only the exec backend runs (a Python file
// for the PyTorch adaptor, an exec spec), which go there rather than to an error.
static std::string defaultBackend(const std::string& path) {
  auto endsWith = [&](const char* ext) {
    size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
  };
  return endsWith(".py") || endsWith(".kcexec") ? backend::kExecBackend : backend::kHostBackend;
}

backend::KernelRef kernelRef(const std::string& impl, const std::string& entry, const sema::ContractInfo& ct) {
  backend::KernelRef k;
  k.path = impl;
  size_t colon = impl.rfind(':');
  if (colon != std::string::npos && colon + 1 < impl.size() && impl.find('/', colon) == std::string::npos) {
    k.path = impl.substr(0, colon);
    k.entry = impl.substr(colon + 1);
  }
  if (!entry.empty()) k.entry = entry;
  // A Python file (a KernelBench problem, run by the exec backend's PyTorch adaptor) runs its
  // ModelNew unless an entry names another: the label says so.
  if (k.entry.empty() && k.path.size() > 3 && k.path.compare(k.path.size() - 3, 3, ".py") == 0) k.entry = "ModelNew";
  // A contract whose scope is an op (std.ops.softmax) checks kc_softmax.
  if (k.entry.empty()) k.entry = "kc_" + ct.kernel->name.substr(ct.kernel->name.rfind('.') + 1);
  return k;
}

// Bindings (a suite's `bind:`, --bind) are for a kernel the exec backend runs, and each names
// an input of the contract's kernel. `where` starts the message ("suite.yaml:12: " or "").
static bool checkBindings(const Job& j, const std::string& where, JobError& error) {
  if (j.kernel.bind.empty()) return true;
  if (j.backend != backend::kExecBackend)
    return fail(error, where + "bind gives module attributes to a kernel the exec backend runs (a Python file); '" +
                           j.kernel.path + "' runs on the " + j.backend + " backend");
  const sema::KernelInfo& k = *j.contract->kernel;
  std::string inputs;
  for (const auto& t : k.tensors)
    if (!t.output) inputs += (inputs.empty() ? "" : ", ") + t.name;
  std::set<std::string> seen;
  for (const auto& [input, attr] : j.kernel.bind) {
    const sema::TensorInfo* t = k.tensor(input);
    if (!t || t->output)
      return fail(error, where + "bind names '" + input + "', which is not an input of " + j.contract->id + " (its inputs: " +
                             inputs + ")");
    if (!seen.insert(input).second) return fail(error, where + "bind names '" + input + "' twice");
  }
  return true;
}

// --bind INPUT=ATTR, as the suite's bind: holds it.
static bool parseBindOptions(const std::vector<std::string>& specs, std::vector<std::pair<std::string, std::string>>& out,
                             JobError& error) {
  for (const auto& s : specs) {
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      return fail(error, "--bind is INPUT=ATTR (weight=ln.weight); not '" + s + "'");
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return true;
}

bool buildJobs(Compilation& c, JobOptions& o, bool warningsAsErrors, std::vector<Job>& jobs, JobError& error) {
  std::vector<std::string> suites, contracts;
  for (const auto& t : o.targets) (check::isSuitePath(t) ? suites : contracts).push_back(t);
  if (suites.size() > 1 || (!suites.empty() && !contracts.empty()))
    return fail(error, "give one suite file, or contract files and IDs, not both");
  if (!o.backend.empty() && !backend::isBackendName(o.backend))
    return fail(error, "--backend is " + backendChoices() + "; not '" + o.backend + "'");
  if (suites.empty() && o.op.empty() && contracts.empty())
    return fail(error, "nothing to check: give a suite .yaml, contract files or IDs with --impl, or --op NAME --impl PATH");

  std::vector<std::pair<std::string, std::string>> bindOption;
  if (!parseBindOptions(o.bind, bindOption, error)) return false;
  if (!suites.empty() && !bindOption.empty())
    return fail(error, "--bind goes with --impl; a suite gives each kernel's bindings under its bind: key");
  if (!suites.empty()) {
    Suite suite;
    try {
      suite = loadSuite(suites[0]);
    } catch (const SuiteError& e) {
      error = {e.what(), true};
      return false;
    }
    CompileInputs in;
    in.includeDirs = o.includeDirs;
    in.includeDirs.insert(in.includeDirs.end(), suite.includeDirs.begin(), suite.includeDirs.end());
    o.includeDirs = in.includeDirs;
    for (auto& k : suite.kernels) {
      if (!k.op.empty()) {
        k.contract = opContract(k.op, o.includeDirs, suites[0] + ":" + std::to_string(k.line) + ": ", error);
        if (k.contract.empty()) return false;
      }
      if (std::find(in.targets.begin(), in.targets.end(), k.contract) == in.targets.end()) in.targets.push_back(k.contract);
      if (!k.classes.empty()) c.extraClasses.push_back({k.contract, k.classes});
    }
    Targets chosen;
    if (!compileTargets(c, in.targets, in.includeDirs, warningsAsErrors, Stage::Sema, chosen)) return false;
    for (const auto& k : suite.kernels) {
      std::vector<const sema::ContractInfo*> cts;
      if (looksLikeContractId(k.contract)) {
        // With `classes:`, the contract sema checked with them too (its ID ends "+CLASS...").
        const std::string suffix = sema::withClassesId("", k.classes);
        for (const auto& ct : c.program->contracts) {
          if (ct->isClass || !ct->id.ends_with(suffix)) continue;
          std::string base = ct->id.substr(0, ct->id.size() - suffix.size());
          if (base.find('+') != std::string::npos) continue;
          if (base == k.contract || base.substr(0, base.find('@')) == k.contract) cts.push_back(ct.get());
        }
      } else {
        for (size_t i = 0; i < chosen.files.size(); ++i)
          if (chosen.files[i] == k.contract && c.fileIds[i]) cts = contractsOf(c, c.fileIds[i], Targets{});
      }
      if (cts.empty())
        return fail(error, suites[0] + ":" + std::to_string(k.line) + ": '" + k.contract + "' declares no contract with a kernel");
      for (const auto* ct : cts) {
        Job j;
        j.label = k.name;
        j.contract = ct;
        j.contractFile = fileOf(c, *ct);
        j.contractLine = ct->range.begin.line;
        j.kernel = kernelRef(k.impl, k.entry, *ct);
        j.backend = o.backend.empty() ? k.backend : o.backend;
        j.supports = k.supports;
        j.expect = k.expect;
        j.origin = suites[0] + ":" + std::to_string(k.line);
        j.kernel.bind = k.bind;
        if (!checkBindings(j, j.origin + ": ", error)) return false;
        jobs.push_back(std::move(j));
      }
    }
    return true;
  }

  if (o.impl.empty()) return fail(error, "--impl PATH[:ENTRY] names the kernel to check against the contracts");
  CompileInputs in;
  in.targets = contracts;
  in.includeDirs = o.includeDirs;
  if (!o.op.empty()) {
    // The op's standard contract (stdlib/ops/NAME.kcontract), with every class it applies.
    std::string id = opContract(o.op, o.includeDirs, "", error);
    if (id.empty()) return false;
    in.targets.push_back(id);
  }
  Targets chosen;
  if (!compileTargets(c, in.targets, in.includeDirs, warningsAsErrors, Stage::Sema, chosen)) return false;
  for (size_t i = 0; i < c.fileIds.size(); ++i)
    for (const auto* ct : contractsOf(c, c.fileIds[i], chosen)) {
      Job j;
      j.label = o.impl;
      j.contract = ct;
      j.contractFile = fileOf(c, *ct);
      j.contractLine = ct->range.begin.line;
      j.kernel = kernelRef(o.impl, "", *ct);
      j.backend = o.backend.empty() ? defaultBackend(j.kernel.path) : o.backend;
      j.kernel.bind = bindOption;
      if (!checkBindings(j, "", error)) return false;
      jobs.push_back(std::move(j));
    }
  if (jobs.empty()) return fail(error, "the contracts given declare no contract with a kernel to check");
  return true;
}

}  // namespace kc::check
