#include "cli/replay_inputs.h"

#include <unistd.h>

#include <iostream>

#include "checker/check.h"
#include "checker/explicit_inputs.h"
#include "checker/report/text.h"
#include "cli/job_options.h"
#include "cli/output.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

ExplicitReplay replayExplicitInputs(const std::string& path, const std::string& impl, const std::string& backend,
                                    const std::vector<std::string>& includeDirs, const GlobalOptions& opts, bool print) {
  ExplicitReplay out;
  out.rc = kExitInput;
  std::string error;
  auto in = check::readExplicitInputs(path, error);
  if (!in) {
    out.error = error;
    return out;
  }
  check::JobOptions jo;
  jo.targets = {in->file.empty() ? in->contract : in->file};
  jo.includeDirs = includeDirs;
  std::string implPath = impl.empty() ? in->impl : impl;
  if (implPath.empty()) {
    out.error = path + " names no implementation: give --impl";
    return out;
  }
  jo.impl = implPath + (in->entry.empty() || !impl.empty() ? "" : ":" + in->entry);
  jo.backend = backend.empty() ? "ptx" : backend;
  Compilation c;
  std::vector<check::Job> jobs;
  if (buildJobs(c, jo, opts, jobs) != kExitOk) {
    out.error = "the contract or the kernel could not be loaded (the reason is above)";
    return out;
  }
  const check::Job* job = nullptr;
  for (const auto& j : jobs)
    if (j.contract->id == in->contract) job = &j;
  if (!job) {
    out.error = (in->file.empty() ? in->contract : in->file) + " declares no contract " + in->contract;
    return out;
  }
  std::vector<std::pair<std::string, int64_t>> dims;
  for (const auto& d : job->contract->kernel->dims) {
    auto it = in->dims.find(d.name);
    if (it == in->dims.end()) {
      out.error = path + " gives no value for the dimension " + d.name;
      return out;
    }
    dims.emplace_back(d.name, it->second);
  }
  plan::Options po;
  po.seed = 0;
  po.problemDims = dims;
  plan::Plan plan;
  try {
    plan = plan::makePlan(*job->contract, po);
  } catch (const std::exception& e) {
    out.error = std::string("no case at the file's dims: ") + e.what();
    return out;
  }
  const plan::Case* kase = nullptr;
  for (const auto& cs : plan.cases) {
    if (cs.why != "problem" || cs.dims != dims) continue;
    bool same = true;
    for (const auto& [var, dt] : cs.dtypes)
      if (auto it = in->dtypes.find(var); it != in->dtypes.end() && it->second != dt) same = false;
    if (same) kase = &cs;
  }
  if (!kase) {
    out.error = "the plan of " + in->contract + " has no case at the file's dims and dtypes";
    return out;
  }
  check::RunOptions ro;
  ro.seed = 0;
  ro.problemDims = dims;
  ro.onlyCase = kase->number;
  ro.onlySeedIndex = 0;
  ro.diagnose = false;
  ro.includeDirs = includeDirs;
  // The case's inputs come from the file: its line says `x=explicit`, not the plan's
  // distribution (whose values are drawn and then replaced).
  const size_t number = kase->number;
  ro.rewritePlan = [number](plan::Plan& p) {
    for (auto& c : p.cases) {
      if (c.number != number) continue;
      for (auto& [input, k] : c.values)
        for (auto& t : p.tensors)
          if (t.name == input && k < t.values.size()) {
            plan::Distribution d = t.values[k];
            d.text = "explicit";
            t.values.push_back(std::move(d));
            k = t.values.size() - 1;
          }
    }
  };
  const check::ExplicitInputs values = *in;
  ro.explicitInputs = [values](const run::CaseSetup& setup, size_t arg, std::vector<uint8_t>& storage) {
    check::applyExplicitInputs(values, setup, arg, storage);
  };
  bool violated = false, ran = false;
  bool color = print && useColor(opts, STDOUT_FILENO);
  check::JobStats st = check::runJob(*job, ro, [&](const report::CaseResult& r) {
    ran = true;
    out.line = report::caseLine(r, color);
    out.verdict = std::string(report::verdictName(r.verdict));
    if (print) std::cout << out.line << "\n";
    violated = violated || report::isViolation(r.verdict);
  });
  if (!st.kernelError.empty()) {
    out.error = job->kernel.path + ": " + st.kernelError;
    return out;
  }
  if (!ran) {
    out.error = "the case did not run";
    return out;
  }
  out.rc = violated ? kExitFailed : kExitOk;
  return out;
}

}  // namespace kc::driver
