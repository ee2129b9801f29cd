// kcontract calibrate [CLASS-ID|CONTRACT-ID|MANIFEST.yaml ...] [--all] [--backend B]
// Three-state calibration of the standard contract classes (checker/calibration.h): for each
// pair in the manifest, the conforming kernel passes the contract, the violating kernel passes
// a plain allclose, and the contract catches the violating kernel with the expected signature.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

#include "checker/calibration.h"
#include "checker/check.h"
#include "checker/report/builtin_signatures.h"
#include "compiler/driver/check_jobs.h"
#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "compiler/plan/planner.h"
#include "stdlib/stdlib_path.h"

namespace kc::driver {

namespace fs = std::filesystem;

namespace {

struct CalibrateOptions {
  std::vector<std::string> targets;
  std::vector<std::string> includeDirs;
  std::string manifest;
  std::string backend;
  bool all = false;
  double timeout = 10;
  check::RunOptions run;
} gCal;

int fail(const std::string& message) {
  std::cerr << "kcontract calibrate: " << message << "\n";
  return kExitInput;
}

std::vector<report::CaseResult> runAll(const check::Job& job, const check::RunOptions& opts) {
  std::vector<report::CaseResult> out;
  check::runJob(job, opts, [&](const report::CaseResult& r) { out.push_back(r); });
  return out;
}

const sema::ContractInfo* findContract(const Compilation& c, const std::string& ref) {
  for (const auto& ct : c.program->contracts) {
    if (ct->isClass || !ct->kernel) continue;
    if (ct->id == ref || ct->id.substr(0, ct->id.find('@')) == ref) return ct.get();
    if (!looksLikeContractId(ref) && c.sources.has(ct->range.file) &&
        fs::weakly_canonical(c.sources.file(ct->range.file).path()) == fs::weakly_canonical(ref))
      return ct.get();
  }
  return nullptr;
}

void printState(const char* what, const check::StateResult& s) {
  std::cout << "  " << what << "  " << check::stateOutcomeName(s.outcome) << "  " << s.summary << "\n";
  if (s.outcome != check::StateOutcome::Shown && !s.detail.empty()) std::cout << "      " << s.detail << "\n";
}

int runCalibrate(const GlobalOptions& opts) {
  CalibrateOptions& o = gCal;
  if (o.timeout <= 0) return fail("--timeout must be positive");
  o.run.timeoutSeconds = o.timeout;
  std::vector<std::string> ids;
  for (const auto& t : o.targets) {
    if (check::isSuitePath(t)) {
      if (!o.manifest.empty() && o.manifest != t) return fail("give one calibration manifest");
      o.manifest = t;
    } else {
      ids.push_back(t);
    }
  }
  if (!o.all && ids.empty() && o.manifest.empty())
    return fail("nothing to calibrate: give class or contract IDs, a manifest .yaml, or --all");
  bool shipped = o.manifest.empty();
  if (shipped) o.manifest = (fs::path(stdlib::sourceRoot()) / "contracts" / "calibration.yaml").string();
  check::CalibrationManifest m;
  try {
    m = check::loadCalibration(o.manifest);
  } catch (const check::SuiteError& e) {
    std::cerr << e.what() << "\n";
    return kExitInput;
  }

  // The entries asked for.
  std::vector<const check::CalibrationEntry*> chosen;
  std::set<std::string> matched;
  for (const auto& e : m.entries) {
    if (!o.backend.empty() && e.backend != o.backend) continue;
    bool pick = o.all || ids.empty();
    for (const auto& id : ids)
      if (e.classId == id || e.classId.substr(0, e.classId.find('@')) == id || e.contract == id) {
        pick = true;
        matched.insert(id);
      }
    if (pick) chosen.push_back(&e);
  }
  for (const auto& id : ids)
    if (!matched.count(id)) return fail("'" + id + "' is neither a class nor a contract of " + o.manifest);

  // Compile every contract the entries name, and (for --all) every shipped class.
  InputOptions in;
  in.includeDirs = o.includeDirs;
  in.includeDirs.insert(in.includeDirs.end(), m.includeDirs.begin(), m.includeDirs.end());
  for (const auto* e : chosen)
    if (std::find(in.targets.begin(), in.targets.end(), e->contract) == in.targets.end()) in.targets.push_back(e->contract);
  if (o.all && shipped)
    for (const auto& f : filesUnder((fs::path(stdlib::sourceRoot()) / "contracts").string(), ".kcontract")) in.targets.push_back(f);
  Compilation c;
  Targets targets;
  if (!compileInputs(c, in, opts, Stage::Sema, targets)) return kExitInput;
  o.run.includeDirs = in.includeDirs;

  // Every entry must name a class its contract applies and a signature the contract has.
  std::vector<std::string> problems;
  for (const auto* e : chosen) {
    std::string at = m.path + ":" + std::to_string(e->line) + ": ";
    const sema::ContractInfo* cls = c.program->contract(e->classId);
    const sema::ContractInfo* ct = findContract(c, e->contract);
    if (!cls || !cls->isClass) problems.push_back(at + "'" + e->classId + "' is not a known class");
    if (!ct) {
      problems.push_back(at + "'" + e->contract + "' declares no contract with a kernel");
      continue;
    }
    if (std::find(ct->applies.begin(), ct->applies.end(), e->classId) == ct->applies.end())
      problems.push_back(at + "contract " + ct->id + " does not apply " + e->classId);
    bool known = report::signature::isBuiltIn(e->signature);  // failures the checker names itself
    for (const auto& s : ct->signatures) known = known || s.name == e->signature;
    if (!known) problems.push_back(at + "contract " + ct->id + " has no signature '" + e->signature + "'");
  }
  // --all: every shipped class has a calibration pair.
  std::vector<std::string> uncalibrated;
  if (o.all && shipped)
    for (const auto& ct : c.program->contracts)
      if (ct->isClass && std::none_of(m.entries.begin(), m.entries.end(), [&](const auto& e) { return e.classId == ct->id; }))
        uncalibrated.push_back(ct->id);
  for (const auto& p : problems) std::cerr << p << "\n";
  if (!problems.empty()) return kExitInput;

  size_t calibrated = 0, skipped = 0;
  std::map<std::string, bool> classDone;  // class -> calibrated by some entry
  // A conforming kernel shared by several pairs of one contract runs once.
  std::map<std::tuple<std::string, std::string, std::string>, check::StateResult> conformingRuns;
  for (const auto* e : chosen) {
    const sema::ContractInfo* ct = findContract(c, e->contract);
    check::Job job;
    job.contract = ct;
    job.contractFile = c.sources.has(ct->range.file) ? c.sources.file(ct->range.file).path() : "";
    job.contractLine = ct->range.begin.line;
    job.backend = e->backend;
    std::cout << e->classId << "  (" << ct->id << ", " << e->backend << ")\n";
    if (!e->rationale.empty()) std::cout << "  violating kernel: " << e->rationale << "\n";

    job.label = e->conforming;
    job.kernel = kernelRef(e->conforming, "", *ct);
    auto key = std::make_tuple(ct->id, e->conforming, e->backend);
    auto known = conformingRuns.find(key);
    if (known == conformingRuns.end())
      known = conformingRuns.emplace(key, check::conformingState(runAll(job, o.run))).first;
    check::StateResult conforming = known->second;
    printState("conforming passes the contract     ", conforming);

    job.label = e->violating;
    job.kernel = kernelRef(e->violating, "", *ct);
    run::Allclose ac;
    ac.prefillReference = e->prefillReference;
    check::RunOptions plain = o.run;
    plain.allclose = &ac;
    plain.rewritePlan = [&](plan::Plan& p) {
      plan::Options po;
      po.seed = o.run.seed;
      p = plan::friendlyPlan(*ct, po, 5);
    };
    check::StateResult allclose = check::allcloseState(runAll(job, plain));
    allclose.summary += allclose.outcome == check::StateOutcome::Shown ? ", 5 seeds, atol = rtol = 1e-2" : "";
    if (e->prefillReference) allclose.summary += ", output buffers holding the reference";
    printState("violating passes a plain allclose  ", allclose);

    check::StateResult caught = check::caughtState(runAll(job, o.run), e->signature);
    printState("contract catches the violating one ", caught);

    using check::StateOutcome;
    bool ok = conforming.outcome == StateOutcome::Shown && allclose.outcome == StateOutcome::Shown &&
              caught.outcome == StateOutcome::Shown;
    bool anySkipped = conforming.outcome == StateOutcome::Skipped || allclose.outcome == StateOutcome::Skipped ||
                      caught.outcome == StateOutcome::Skipped;
    calibrated += ok ? 1 : 0;
    skipped += !ok && anySkipped ? 1 : 0;
    classDone[e->classId] = classDone[e->classId] || ok;
  }

  size_t notShown = chosen.size() - calibrated - skipped;
  std::cout << "\ncalibrate: " << calibrated << " of " << chosen.size() << " calibration pairs show all three states";
  if (skipped) std::cout << ", " << skipped << " skipped (backend not available here)";
  if (notShown) std::cout << ", " << notShown << " do NOT";
  std::cout << "\n";
  for (const auto& id : uncalibrated) std::cout << "calibrate: class " << id << " has no calibration pair\n";
  return notShown == 0 && uncalibrated.empty() ? kExitOk : kExitFailed;
}

}  // namespace

void addCalibrateCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("calibrate", "Three-state calibration of the standard contract classes");
  sub->add_option("targets", gCal.targets, "Class or contract IDs to calibrate, or a calibration manifest .yaml");
  sub->add_flag("--all", gCal.all, "Every pair of the manifest; with the shipped one, also require a pair for every class");
  sub->add_option("--backend", gCal.backend, "Only the pairs of this backend (host, cuda, ...)");
  sub->add_option("-I,--include", gCal.includeDirs, "Another folder to search for imports and contract IDs");
  sub->add_option("--timeout", gCal.timeout, "Seconds one run of a case may take before it is killed (default 10)");
  sub->add_option("--seed", gCal.run.seed, "The base seed of every plan (default 0)");
  commands.emplace_back(sub, &runCalibrate);
}

}  // namespace kc::driver
