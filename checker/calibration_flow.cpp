#include "checker/calibration_flow.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "checker/jobs.h"
#include "checker/report/builtin_signatures.h"
#include "compiler/plan/planner.h"
#include "compiler/targets.h"
#include "stdlib/data_root.h"

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
  RunOptions caseByCase = opts;
  caseByCase.diagnose = false;  // calibration pins the names its cases match
  JobStats st = runJob(job, caseByCase, [&](const report::CaseResult& r) { out.push_back(r); });
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

// The entries of `m` asked for: every one (for --all or no IDs) or those of the IDs named, of
// the backend asked for; an op pair's contract resolved to the version named, else the newest.
bool pickEntries(const CalibrationManifest& m, const CalibrateOptions& o, const std::vector<std::string>& ids,
                 const std::vector<std::string>& opContracts, std::vector<CalibrationEntry>& chosen,
                 CalibrationError& error) {
  auto newestOf = [&](const std::string& op) -> std::string {
    for (const auto& id : opContracts)
      if (id.substr(0, id.find('@')) == opContractId(op)) return id;
    return "";
  };
  std::set<std::string> matched;
  for (const auto& e : m.entries) {
    if (!o.backend.empty() && e.backend != o.backend) continue;
    bool pick = o.all || ids.empty();
    std::string version;  // an op pair checked against the version named
    for (const auto& id : ids) {
      std::string base = id.substr(0, id.find('@'));
      bool hit = e.isOp() ? base == e.contract || base == e.op || base == "std.ops." + e.op
                          : e.classId == id || e.classId.substr(0, e.classId.find('@')) == id || e.contract == id;
      if (!hit) continue;
      pick = true;
      matched.insert(id);
      if (e.isOp() && id.find('@') != std::string::npos) version = id;
    }
    if (!pick) continue;
    CalibrationEntry picked = e;
    if (e.isOp()) {
      std::string newest = newestOf(e.op);
      if (newest.empty()) {
        std::string list;
        for (const auto& id : opContracts) list += (list.empty() ? "" : ", ") + id.substr(7, id.find('@') - 7);
        error = {m.path + ":" + std::to_string(e.line) + ": '" + e.op + "' is not a standard op; the standard ops are: " + list, true};
        return false;
      }
      picked.contract = version.empty() ? newest : version;
    }
    chosen.push_back(std::move(picked));
  }
  for (const auto& id : ids)
    if (!matched.count(id)) return fail(error, "'" + id + "' is neither a class, an op nor a contract of " + m.path);
  return true;
}

// `allclose-dims` names dims of the contract's kernel, at sizes its scope admits.
void checkAllcloseDims(const CalibrationEntry& e, const sema::ContractInfo& ct, const std::string& at,
                       std::vector<std::string>& problems) {
  for (const auto& [dim, size] : e.allcloseDims) {
    const sema::DimInfo* info = ct.kernel->dim(dim);
    if (!info)
      problems.push_back(at + "'allclose-dims': kernel " + ct.kernel->name + " has no dim '" + dim + "'");
    else if (!info->admits(size))
      problems.push_back(at + "'allclose-dims': " + dim + " = " + std::to_string(size) + " is not a size " + ct.id + " admits");
  }
}

// `dtype` is one some dtype variable of the contract's kernel takes.
void checkDtype(const CalibrationEntry& e, const sema::ContractInfo& ct, const std::string& at,
                std::vector<std::string>& problems) {
  if (e.dtype.empty()) return;
  plan::Plan p = plan::makePlan(ct);
  for (const auto& v : p.dtypeVars)
    if (std::find(v.allowed.begin(), v.allowed.end(), e.dtype) != v.allowed.end()) return;
  problems.push_back(at + "'dtype': no dtype variable of " + ct.id + " takes " + e.dtype);
}

// The friendly case at the baseline's own shape, measured afresh at it (its memory and sizes
// shrink as well as grow with the dims), so the usual limits apply to what runs.
void applyAllcloseDims(const CalibrationEntry& e, const sema::ContractInfo& ct, plan::Plan& p) {
  for (auto& fc : p.cases) {
    for (auto& [dim, size] : fc.dims)
      for (const auto& [name, v] : e.allcloseDims)
        if (name == dim) size = v;
    plan::remeasure(ct, p, fc);
  }
}

}  // namespace

bool Calibration::prepare(Compilation& c, const CalibrateOptions& o, bool warningsAsErrors, CalibrationError& error) {
  c_ = &c;
  run_ = o.run;
  memoryCapped_ = o.memoryCapped;
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
  if (shipped) manifest = (fs::path(stdlib::dataDir()) / "contracts" / "calibration.yaml").string();
  CalibrationManifest& m = manifest_;
  try {
    m = loadCalibration(manifest);
  } catch (const SuiteError& e) {
    error = {e.what(), true};
    return false;
  }

  // The entries asked for. A class pair is named by its class or its contract; an op pair by
  // its op (relu, std.ops.relu) or the op's contract (std.op.relu, or std.op.relu@1 to check
  // that version rather than the newest).
  std::vector<std::string> includeDirs = o.includeDirs;
  includeDirs.insert(includeDirs.end(), m.includeDirs.begin(), m.includeDirs.end());
  std::vector<std::string> opContracts = standardOpContracts(includeDirs);
  if (!pickEntries(m, o, ids, opContracts, chosen_, error)) return false;
  if (o.shardCount > 1) {
    std::vector<CalibrationEntry> mine;
    for (size_t i = o.shardIndex; i < chosen_.size(); i += o.shardCount) mine.push_back(chosen_[i]);
    chosen_ = std::move(mine);
  }

  // Compile every contract the entries name, and (for --all) every shipped class.
  std::vector<std::string> targets;
  for (const auto& e : chosen_)
    if (std::find(targets.begin(), targets.end(), e.contract) == targets.end()) targets.push_back(e.contract);
  if (o.all && shipped)
    for (const auto& f : filesUnder((fs::path(stdlib::dataDir()) / "contracts").string(), ".kcontract")) targets.push_back(f);
  Targets resolved;
  if (!compileTargets(c, targets, includeDirs, warningsAsErrors, Stage::Sema, resolved)) return false;
  run_.includeDirs = includeDirs;

  // Every entry must name a class its contract applies and a signature the contract has.
  std::vector<std::string> problems;
  for (const auto& entry : chosen_) {
    const CalibrationEntry* e = &entry;
    std::string at = m.path + ":" + std::to_string(e->line) + ": ";
    const sema::ContractInfo* ct = findContract(c, e->contract);
    if (!e->isOp()) {
      const sema::ContractInfo* cls = c.program->contract(e->classId);
      if (!cls || !cls->isClass) problems.push_back(at + "'" + e->classId + "' is not a known class");
    }
    if (!ct) {
      problems.push_back(at + "'" + e->contract + "' declares no contract with a kernel");
      continue;
    }
    if (!e->isOp() && std::find(ct->applies.begin(), ct->applies.end(), e->classId) == ct->applies.end())
      problems.push_back(at + "contract " + ct->id + " does not apply " + e->classId);
    bool known = report::signature::isBuiltIn(e->signature);  // failures the checker names itself
    for (const auto& s : ct->signatures) known = known || s.name == e->signature;
    if (!known) problems.push_back(at + "contract " + ct->id + " has no signature '" + e->signature + "'");
    checkAllcloseDims(*e, *ct, at, problems);
    checkDtype(*e, *ct, at, problems);
  }
  // --all: every shipped class has a calibration pair.
  if (o.all && shipped)
    for (const auto& ct : c.program->contracts)
      if (ct->isClass && std::none_of(m.entries.begin(), m.entries.end(), [&](const auto& e) { return e.classId == ct->id; }))
        uncalibrated_.push_back(ct->id);
  // --all: every standard op has one too.
  if (o.all && shipped)
    for (const auto& id : opContracts) {
      std::string op = id.substr(7, id.find('@') - 7);
      if (std::none_of(m.entries.begin(), m.entries.end(), [&](const auto& e) { return e.op == op; }))
        uncalibratedOps_.push_back(id);
    }
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
  sum.uncalibratedOps = uncalibratedOps_;
  // A conforming kernel shared by several pairs of one contract runs once.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, StateResult> conformingRuns;
  for (const auto& entry : chosen_) {
    const CalibrationEntry* e = &entry;
    const sema::ContractInfo* ct = findContract(c, e->contract);
    Job job;
    job.contract = ct;
    job.contractFile = c.sources.has(ct->range.file) ? c.sources.file(ct->range.file).path() : "";
    job.contractLine = ct->range.begin.line;
    job.backend = e->backend;
    observer.pair(*e, *ct);

    RunOptions run = run_;
    if (!e->dtype.empty()) run.dtype = e->dtype;
    job.label = e->conforming;
    job.kernel = kernelRef(e->conforming, "", *ct);
    auto key = std::make_tuple(ct->id, e->conforming, e->backend, e->dtype);
    auto known = conformingRuns.find(key);
    if (known == conformingRuns.end()) known = conformingRuns.emplace(key, conformingState(runAll(job, run))).first;
    StateResult conforming = known->second;
    observer.state("conforming passes the contract     ", conforming);

    job.label = e->violating;
    job.kernel = kernelRef(e->violating, "", *ct);
    run::Allclose ac;
    ac.prefillReference = e->prefillReference;
    RunOptions plain = run;
    plain.allclose = &ac;
    plain.rewritePlan = [&](plan::Plan& p) {
      plan::Options po;
      po.seed = run_.seed;
      if (!e->dtype.empty()) po.friendlyDtype = e->dtype;
      p = plan::friendlyPlan(*ct, po, 5);
      applyAllcloseDims(*e, *ct, p);
    };
    StateResult allclose = allcloseState(runAll(job, plain));
    allclose.summary += allclose.outcome == StateOutcome::Shown ? ", 5 seeds, atol = rtol = 1e-2" : "";
    if (e->prefillReference) allclose.summary += ", output buffers holding the reference";
    observer.state("violating passes a plain allclose  ", allclose);

    StateResult caught = caughtState(runAll(job, run), e->signature, memoryCapped_);
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
