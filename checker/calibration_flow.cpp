#include "checker/calibration_flow.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "checker/jobs.h"
#include "checker/report/builtin_signatures.h"
#include "compiler/plan/planner.h"
#include "compiler/targets.h"
#include "stdlib/stdlib_path.h"

namespace kc::check {

namespace fs = std::filesystem;

namespace {

bool fail(CalibrationError& error, const std::string& message) {
  error.message = message;
  return false;
}

// Every result of the job; a kernel that cannot be built or loaded is one ERROR result
// saying why (no case of it ran), so the state it was to show is not shown.
std::vector<report::CaseResult> runAll(const Job& job, const RunOptions& opts) {
  std::vector<report::CaseResult> out;
  JobStats st = runJob(job, opts, [&](const report::CaseResult& r) { out.push_back(r); });
  if (!st.kernelError.empty()) {
    report::CaseResult e;
    e.contract = job.contract->id;
    e.kernel = job.label;
    e.backend = job.backend;
    e.verdict = report::Verdict::Error;
    e.reason = st.kernelError.substr(0, st.kernelError.find('\n'));
    e.kernelOutput = st.kernelError;
    out.push_back(e);
  }
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

}  // namespace

bool Calibration::prepare(Compilation& c, const CalibrateOptions& o, bool warningsAsErrors, CalibrationError& error) {
  c_ = &c;
  run_ = o.run;
  std::string manifest;
  std::vector<std::string> ids;
  for (const auto& t : o.targets) {
    if (isSuitePath(t)) {
      if (!manifest.empty() && manifest != t) return fail(error, "give one calibration manifest");
      manifest = t;
    } else {
      ids.push_back(t);
    }
  }
  if (!o.all && ids.empty() && manifest.empty())
    return fail(error, "nothing to calibrate: give class or contract IDs, a manifest .yaml, or --all");
  bool shipped = manifest.empty();
  if (shipped) manifest = (fs::path(stdlib::sourceRoot()) / "contracts" / "calibration.yaml").string();
  CalibrationManifest& m = manifest_;
  try {
    m = loadCalibration(manifest);
  } catch (const SuiteError& e) {
    error = {e.what(), true};
    return false;
  }

  // The entries asked for.
  std::set<std::string> matched;
  for (const auto& e : m.entries) {
    if (!o.backend.empty() && e.backend != o.backend) continue;
    bool pick = o.all || ids.empty();
    for (const auto& id : ids)
      if (e.classId == id || e.classId.substr(0, e.classId.find('@')) == id || e.contract == id) {
        pick = true;
        matched.insert(id);
      }
    if (pick) chosen_.push_back(&e);
  }
  for (const auto& id : ids)
    if (!matched.count(id)) return fail(error, "'" + id + "' is neither a class nor a contract of " + manifest);

  // Compile every contract the entries name, and (for --all) every shipped class.
  std::vector<std::string> targets;
  std::vector<std::string> includeDirs = o.includeDirs;
  includeDirs.insert(includeDirs.end(), m.includeDirs.begin(), m.includeDirs.end());
  for (const auto* e : chosen_)
    if (std::find(targets.begin(), targets.end(), e->contract) == targets.end()) targets.push_back(e->contract);
  if (o.all && shipped)
    for (const auto& f : filesUnder((fs::path(stdlib::sourceRoot()) / "contracts").string(), ".kcontract")) targets.push_back(f);
  Targets resolved;
  if (!compileTargets(c, targets, includeDirs, warningsAsErrors, Stage::Sema, resolved)) return false;
  run_.includeDirs = includeDirs;

  // Every entry must name a class its contract applies and a signature the contract has.
  std::vector<std::string> problems;
  for (const auto* e : chosen_) {
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
  if (o.all && shipped)
    for (const auto& ct : c.program->contracts)
      if (ct->isClass && std::none_of(m.entries.begin(), m.entries.end(), [&](const auto& e) { return e.classId == ct->id; }))
        uncalibrated_.push_back(ct->id);
  if (!problems.empty()) {
    for (const auto& p : problems) error.message += (error.message.empty() ? "" : "\n") + p;
    error.located = true;
    return false;
  }
  return true;
}

CalibrationSummary Calibration::run(CalibrationObserver& observer) {
  const Compilation& c = *c_;
  CalibrationSummary sum;
  sum.pairs = chosen_.size();
  sum.uncalibrated = uncalibrated_;
  // A conforming kernel shared by several pairs of one contract runs once.
  std::map<std::tuple<std::string, std::string, std::string>, StateResult> conformingRuns;
  for (const auto* e : chosen_) {
    const sema::ContractInfo* ct = findContract(c, e->contract);
    Job job;
    job.contract = ct;
    job.contractFile = c.sources.has(ct->range.file) ? c.sources.file(ct->range.file).path() : "";
    job.contractLine = ct->range.begin.line;
    job.backend = e->backend;
    observer.pair(*e, *ct);

    job.label = e->conforming;
    job.kernel = kernelRef(e->conforming, "", *ct);
    auto key = std::make_tuple(ct->id, e->conforming, e->backend);
    auto known = conformingRuns.find(key);
    if (known == conformingRuns.end()) known = conformingRuns.emplace(key, conformingState(runAll(job, run_))).first;
    StateResult conforming = known->second;
    observer.state("conforming passes the contract     ", conforming);

    job.label = e->violating;
    job.kernel = kernelRef(e->violating, "", *ct);
    run::Allclose ac;
    ac.prefillReference = e->prefillReference;
    RunOptions plain = run_;
    plain.allclose = &ac;
    plain.rewritePlan = [&](plan::Plan& p) {
      plan::Options po;
      po.seed = run_.seed;
      p = plan::friendlyPlan(*ct, po, 5);
    };
    StateResult allclose = allcloseState(runAll(job, plain));
    allclose.summary += allclose.outcome == StateOutcome::Shown ? ", 5 seeds, atol = rtol = 1e-2" : "";
    if (e->prefillReference) allclose.summary += ", output buffers holding the reference";
    observer.state("violating passes a plain allclose  ", allclose);

    StateResult caught = caughtState(runAll(job, run_), e->signature);
    observer.state("contract catches the violating one ", caught);

    bool ok = conforming.outcome == StateOutcome::Shown && allclose.outcome == StateOutcome::Shown &&
              caught.outcome == StateOutcome::Shown;
    bool anySkipped = conforming.outcome == StateOutcome::Skipped || allclose.outcome == StateOutcome::Skipped ||
                      caught.outcome == StateOutcome::Skipped;
    sum.calibrated += ok ? 1 : 0;
    sum.skipped += !ok && anySkipped ? 1 : 0;
  }
  return sum;
}

}  // namespace kc::check
