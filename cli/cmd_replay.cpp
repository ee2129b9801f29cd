// kcontract replay REPRO: rebuilds one case from its reproducer line (or a JSON Lines
// result holding one), checks that the inputs are byte for byte those of the original run,
// and runs the case again with the same verdict rules.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "checker/check.h"
#include "checker/report/text.h"
#include "checker/repro.h"
#include "checker/run/marks.h"
#include "cli/cli.h"
#include "cli/job_options.h"
#include "cli/output.h"
#include "cli/replay_inputs.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

namespace {

int runReplay(const std::string& reproText, const GlobalOptions& opts) {
  std::string error;
  auto parsed = check::parseRepro(reproText, error);
  if (!parsed) {
    std::cerr << "kcontract replay: not a reproducer: " << error << "\n";
    return kExitInput;
  }
  // The paths as the check saw them, from the folder it ran in (dir=): replay works from anywhere.
  auto repro = std::make_optional(check::resolvedFromDir(*parsed));
  check::JobOptions jo;
  jo.targets = {repro->file};
  jo.includeDirs = repro->includeDirs;
  jo.impl = repro->impl + ":" + repro->entry;
  jo.backend = repro->backend;
  for (const auto& [input, attr] : repro->bind) jo.bind.push_back(input + "=" + attr);
  Compilation c;
  std::vector<check::Job> jobs;
  int rc = buildJobs(c, jo, opts, jobs);
  if (rc != kExitOk) return rc;
  const check::Job* job = nullptr;
  for (const auto& j : jobs)
    if (j.contract->id == repro->contract) job = &j;
  if (!job) {
    std::cerr << "kcontract replay: " << repro->file << " no longer declares " << repro->contract << "\n";
    return kExitInput;
  }
  plan::Options po;
  po.seed = repro->baseSeed;
  po.problemDims = repro->problemDims;
  plan::Plan plan = plan::makePlan(*job->contract, po);
  const plan::Case* kase = nullptr;
  for (const auto& cs : plan.cases)
    if (cs.number == repro->caseNumber) kase = &cs;
  if (!kase || repro->seedIndex >= kase->seeds.size()) {
    std::cerr << "kcontract replay: the plan of " << repro->contract << " has no case " << repro->caseNumber
              << " with seed " << repro->seedIndex << ": the contract changed since the reproducer was written\n";
    return kExitInput;
  }
  check::RunOptions ro;
  ro.seed = repro->baseSeed;
  if (!repro->marks.empty()) ro.marks = run::parseMarks(repro->marks);  // the check's poison, canaries and names
  const uint64_t marks = check::caseMarks(ro, kase->seeds[repro->seedIndex], kase->number);
  if (repro->inputs != "-") {
    std::string digest = check::caseInputsDigest(*job, plan, *kase, repro->seedIndex, marks);
    if (digest != repro->inputs) {
      std::cerr << "kcontract replay: the inputs rebuilt from the seed (" << digest << ") differ from the reproducer's ("
                << repro->inputs << "): the contract or kcontract changed since it was written\n";
      return kExitInput;
    }
    std::cout << "inputs: rebuilt byte for byte (" << digest << ")\n";
  }
  ro.onlyCase = repro->caseNumber;
  ro.diagnose = false;  // one case, judged as the check judged it
  ro.onlySeedIndex = repro->seedIndex;
  ro.includeDirs = repro->includeDirs;
  ro.problemDims = repro->problemDims;
  if (repro->timeout > 0) ro.timeoutSeconds = repro->timeout;
  bool violated = false;
  bool color = useColor(opts, STDOUT_FILENO);
  check::JobStats st = check::runJob(*job, ro, [&](const report::CaseResult& r) {
    std::cout << report::caseLine(r, color) << "\n";
    violated = violated || report::isViolation(r.verdict);
  });
  if (!st.kernelError.empty()) {  // a case-independent error: an input error
    std::cerr << "kcontract replay: " << job->kernel.path << ": " << st.kernelError << "\n";
    return kExitInput;
  }
  return violated ? kExitFailed : kExitOk;
}

}  // namespace

void addReplayCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("replay", "Re-run one case from the reproducer line of a check report, or a contract "
                                               "on explicit inputs (--inputs)");
  auto reproText = std::make_shared<std::string>();
  auto inputs = std::make_shared<std::string>();
  auto impl = std::make_shared<std::string>();
  auto backend = std::make_shared<std::string>();
  auto includes = std::make_shared<std::vector<std::string>>();
  sub->add_option("repro", *reproText, "The reproducer ('file=... contract=... case=...') or a JSON Lines result");
  sub->add_option("--inputs", *inputs,
                  "Run the contract on the inputs of this file (a counterexample of prove --kernel) instead of a reproducer");
  sub->add_option("--impl", *impl, "With --inputs: the kernel to run (default: the file's)");
  sub->add_option("--backend", *backend, "With --inputs: the backend (default ptx)");
  sub->add_option("-I", *includes, "With --inputs: a folder to search for imported contracts");
  commands.emplace_back(sub, [reproText, inputs, impl, backend, includes](const GlobalOptions& g) {
    if (!inputs->empty()) {
      if (!reproText->empty()) {
        std::cerr << "kcontract replay: give a reproducer or --inputs, not both\n";
        return static_cast<int>(kExitInput);
      }
      ExplicitReplay r = replayExplicitInputs(*inputs, *impl, *backend, *includes, g, true);
      if (!r.error.empty()) std::cerr << "kcontract replay: " << r.error << "\n";
      return r.rc;
    }
    if (reproText->empty()) {
      std::cerr << "kcontract replay: give a reproducer line, or --inputs FILE\n";
      return static_cast<int>(kExitInput);
    }
    return runReplay(*reproText, g);
  });
}

}  // namespace kc::driver
