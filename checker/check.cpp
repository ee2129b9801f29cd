#include "checker/check.h"

#include "checker/diagnose/diagnose.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>

#include <unistd.h>

#include "checker/oracle/evaluator.h"
#include "checker/report/chain.h"
#include "checker/report/jsonl.h"
#include "checker/repro.h"
#include "checker/run/big_case.h"
#include "checker/run/case_setup.h"
#include "checker/run/control.h"
#include "checker/run/judge.h"
#include "checker/run/lanes.h"
#include "checker/run/worker.h"
#include "checker/sanitize.h"
#include "compiler/plan/batch.h"
#include "compiler/plan/planner.h"
#include "stdlib/numerics/float_bits.h"

namespace kc::check {

namespace {

using report::CaseResult;
using report::Verdict;

std::string humanBytes(uint64_t b) {
  char buf[32];
  if (b >= (1ull << 40)) std::snprintf(buf, sizeof buf, "%.1f TiB", static_cast<double>(b) / (1ull << 40));
  else if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1ull << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
  return buf;
}

std::string layoutKind(const std::string& text) { return text.substr(0, text.find('(')); }

// The skeleton of a result: what ran, before any verdict.
CaseResult describe(const Job& job, const plan::Plan& plan, const plan::Case& c, const RunOptions& opts) {
  CaseResult r;
  r.contract = job.contract->id;
  r.contractFile = job.contractFile;
  r.contractLine = job.contractLine;
  r.kernel = job.kernel.path + ":" + job.kernel.entry;
  if (!job.origin.empty()) r.name = job.label;  // a suite's entry
  r.backend = job.backend;
  r.caseId = c.id;
  r.number = c.number;
  r.why = c.why;
  r.dims = c.dims;
  r.dtypes = c.dtypes;
  for (const auto& [name, k] : c.values)
    for (const auto& t : plan.tensors)
      if (t.name == name && k < t.values.size()) r.values.emplace_back(name, t.values[k].text);
  for (const auto& [name, k] : c.layouts)
    for (const auto& t : plan.tensors)
      if (t.name == name && k < t.layouts.size()) r.layouts.emplace_back(name, t.layouts[k].text);
  r.baseSeed = opts.seed;
  r.seed = c.seeds.empty() ? 0 : c.seeds.front();
  r.repeats = static_cast<int>(std::max<int64_t>(1, c.repeats));
  return r;
}

Repro reproFor(const Job& job, const CaseResult& r, const std::string& digest, const RunOptions& opts) {
  Repro p;
  p.file = job.contractFile;
  p.contract = job.contract->id;
  p.caseNumber = r.number;
  p.seedIndex = r.seedIndex;
  p.baseSeed = opts.seed;
  p.impl = job.kernel.path;
  p.entry = job.kernel.entry;
  p.backend = job.backend;
  p.inputs = digest;
  p.marks = run::formatMarks(caseMarks(opts, r.seed, r.number));
  p.timeout = opts.timeoutSeconds;
  p.includeDirs = opts.includeDirs;
  p.problemDims = opts.problemDims;
  p.bind = job.kernel.bind;
  bool relative = !p.file.empty() && p.file[0] != '/';
  relative = relative || (!p.impl.empty() && p.impl[0] != '/');
  for (const auto& d : p.includeDirs) relative = relative || (!d.empty() && d[0] != '/');
  std::error_code ec;
  if (relative) p.dir = std::filesystem::current_path(ec).string();  // "" when the folder is gone
  return p;
}

// Writes the oracle's answer, rounded to each output's dtype, into the output storage (the
// allclose harness's prefillReference).
void prefillWithReference(const sema::ContractInfo& ct, const run::CaseSetup& s,
                          std::vector<std::vector<uint8_t>>& storage, unsigned threads) {
  oracle::OracleResult r = oracle::evalOracle(ct, run::inputBindings(s, storage, threads), {threads});
  for (size_t a = 0; a < s.args.size(); ++a) {
    const run::ArgSpec& spec = s.args[a];
    auto it = r.oracle.find(spec.name);
    if (!spec.output || it == r.oracle.end()) continue;
    std::vector<int64_t> idx(spec.shape.size(), 0);
    size_t bytes = spec.elementBytes();
    for (int64_t i = 0; i < spec.numel(); ++i) {
      uint64_t bits = numerics::encode(spec.dtype, it->second.data[static_cast<size_t>(i)]);
      std::memcpy(storage[a].data() + static_cast<size_t>(spec.storageIndex(idx)) * bytes, &bits, bytes);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < spec.shape[d]) break;
        idx[d] = 0;
      }
    }
  }
}

// One case on its way to a result: what each step leaves for the next.
struct CaseRun {
  CaseRun(const Job& job, const plan::Plan& plan, const plan::Case& c, backend::Backend& be,
          const backend::Prepared& prepared, run::Worker& worker, const RunOptions& opts)
      : job(job), plan(plan), c(c), be(be), prepared(prepared), worker(worker), opts(opts) {}

  const Job& job;
  const plan::Plan& plan;
  const plan::Case& c;
  backend::Backend& be;
  const backend::Prepared& prepared;
  run::Worker& worker;
  const RunOptions& opts;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  CaseResult r;
  bool streamed = false;  // through the streamed path (big_case.h)
  run::PhaseTimes* ph = opts.phases;
  run::CaseSetup setup;
  run::BigCaseRequest big;  // when streamed
  std::string loadError;    // the worker could not load the kernel: a case-independent error

  CaseResult run();
  void finish(CaseResult& res) const;
  // Each returns the case's result when the step settles it.
  std::optional<CaseResult> tooLarge();
  std::optional<CaseResult> build();
  std::optional<CaseResult> streamedObstacle();
  // One seed on the host path: inputs, the worker's launches, the sub-batch check, the judge
  // and the control runs. False when the inputs could not be generated (`attempt` says why).
  bool runSeed(size_t k, CaseResult& attempt, std::vector<std::vector<uint8_t>>& inputsOnly);
};

void CaseRun::finish(CaseResult& res) const {
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::optional<CaseResult> CaseRun::tooLarge() {
  uint64_t need = caseHostBytes(c);
  // Beyond what the machine has (whatever --max-memory allows): SKIPPED with both numbers.
  std::string beyond;
  if (need <= opts.maxCaseBytes && opts.streamCells == 0)
    beyond = memoryObstacle(need, availableHostBytes(), "host memory", "the machine has");
  if (!beyond.empty()) {
    r.verdict = Verdict::Skipped;
    r.reason = beyond + " available (MemAvailable)";
    finish(r);
    return r;
  }
  // Too large for the host: the streamed path where the backend's memory is its own (a
  // GPU's); --stream-cells forces that path on any case (CI runs it against the normal one).
  // (Not for calibration's plain allclose harness, which judges every cell on the host.)
  streamed = !opts.allclose && (opts.streamCells > 0 || (need > opts.maxCaseBytes && be.separateMemory()));
  // Too large and not streamed onto memory of the backend's own (host buffers would be host memory too).
  if (need > opts.maxCaseBytes && !(streamed && be.separateMemory())) {
    r.verdict = Verdict::Skipped;
    r.reason = "needs about " + humanBytes(need) + " of host memory; the limit is " + humanBytes(opts.maxCaseBytes) +
               " (--max-memory)";
    finish(r);
    return r;
  }
  return std::nullopt;
}

std::optional<CaseResult> CaseRun::build() {
  run::PhaseTimer setupTimer(ph ? &ph->setup : nullptr);
  try {
    setup = run::setupCase(*job.contract, plan, c);
  } catch (const std::exception& e) {
    r.verdict = Verdict::Error;
    r.reason = std::string("the case cannot be built: ") + e.what();
    finish(r);
    return r;
  }
  setupTimer.stop();
  return std::nullopt;
}

std::optional<CaseResult> CaseRun::streamedObstacle() {
  big.contract = job.contract;
  big.plan = &plan;
  big.kase = &c;
  big.setup = &setup;
  big.backend = &be;
  big.prepared = prepared;
  big.entry = job.kernel.entry;
  big.device = worker.device();
  big.repeats = r.repeats;
  // --timeout is for the kernel; generating, copying and checking tens of GiB on the
  // device takes its own time: 2 s per GiB of the case's tensors.
  // An interpreter's buffers are made real only where touched: no time per GiB there.
  big.timeoutSeconds = opts.timeoutSeconds +
                       (be.interprets() ? 0.0 : 2.0 * static_cast<double>(c.memoryBytes) / static_cast<double>(1ull << 30));
  big.deviceBytes = caseDeviceBytes(setup, true, r.repeats);
  big.sampleCells = opts.streamCells > 0 ? opts.streamCells : std::max<int64_t>(c.cells.sample, 1000);
  big.maxHostBytes = opts.maxCaseBytes;
  big.threads = opts.threads;
  big.seed = c.seeds.empty() ? 0 : c.seeds.front();
  std::string obstacle;
  try {
    obstacle = run::bigCaseObstacle(big);
  } catch (const std::exception& e) {
    obstacle = std::string("the streamed case path cannot build the case: ") + e.what();
  }
  if (!obstacle.empty()) {
    r.verdict = Verdict::Skipped;
    r.reason = obstacle;
    finish(r);
    return r;
  }
  return std::nullopt;
}

bool CaseRun::runSeed(size_t k, CaseResult& attempt, std::vector<std::vector<uint8_t>>& inputsOnly) {
  std::vector<std::vector<uint8_t>> storage;
  run::PhaseTimer inputsTimer(ph ? &ph->inputs : nullptr);
  run::setMarks(setup, caseMarks(opts, c.seeds[k], c.number));  // this run's poison, canaries and names
  try {
    for (size_t a = 0; a < setup.args.size(); ++a) {
      storage.push_back(run::makeStorage(setup, plan, c, a, c.seeds[k], opts.threads));
      if (opts.explicitInputs) opts.explicitInputs(setup, a, storage.back());
      if (!setup.args[a].output) inputsOnly.push_back(storage.back());
    }
    if (opts.allclose && opts.allclose->prefillReference) prefillWithReference(*job.contract, setup, storage, opts.threads);
  } catch (const std::exception& e) {
    attempt.verdict = Verdict::Error;
    attempt.reason = std::string("the inputs cannot be generated: ") + e.what();
    return false;
  }
  inputsTimer.stop();
  // Inputs that break the precondition say nothing about the kernel: it is not run on them
  // (unless the contract asks for such inputs on purpose: std.iface.precondition-report@1).
  if (!opts.allclose && !run::reportsPrecondition(*job.contract)) {
    std::string broken = run::brokenPrecondition(*job.contract, setup, storage, opts.threads);
    if (!broken.empty()) {
      attempt.verdict = Verdict::Mistrusted;
      attempt.reason = "the generated inputs break the precondition '" + broken +
                       "', so the case says nothing about the kernel; it was not run";
      return true;
    }
  }
  run::WorkerRequest wr;
  wr.backend = &be;
  wr.prepared = prepared;
  wr.entry = job.kernel.entry;
  wr.setup = &setup;
  wr.storage = storage;
  wr.repeats = attempt.repeats;
  wr.timeoutSeconds = opts.timeoutSeconds;
  wr.deviceSync = opts.allclose && opts.allclose->deviceSync;
  // A plain allclose harness perturbs nothing; sub_batch is the checker's own re-run (below),
  // nothing the backend does to a launch.
  const bool subBatch = c.perturb == backend::perturb::kSubBatch;
  wr.perturb = opts.allclose || subBatch ? backend::perturb::kNone : c.perturb;
  wr.worker = &worker;
  wr.device = worker.device();  // runs of this case in fresh workers (control runs, sub-batches) see the same GPU
  run::LaunchRecord rec;
  run::PhaseTimer workerTimer(ph ? &ph->worker : nullptr);
  try {
    rec = run::runInWorker(wr);
  } catch (const std::exception& e) {
    rec.status = run::LaunchStatus::Error;
    rec.message = e.what();
  }
  workerTimer.stop();
  if (opts.onLaunch && !rec.loadFailed) opts.onLaunch(c, k, setup, rec);
  if (rec.loadFailed) {
    loadError = rec.message;
    attempt.verdict = Verdict::Error;
    attempt.reason = rec.message;
    return false;
  }
  std::optional<run::BatchFinding> batch;
  run::PhaseTimer batchTimer(ph ? &ph->batch : nullptr);
  if (c.perturb == backend::perturb::kSubBatch && !opts.allclose && rec.status == run::LaunchStatus::Ok)
    if (auto dim = plan::batchDim(*job.contract->kernel)) batch = run::checkSubBatches(*job.contract->kernel, wr, rec, *dim);
  batchTimer.stop();
  run::JudgeInput in{job.contract, &plan, &c, &setup, &storage, &rec, opts.threads, opts.allclose};
  if (batch) in.batch = &*batch;
  in.phases = ph;
  in.oracleEngine = opts.oracleEngines->forJob(opts.oracle, job.backend, in.oracleNotUsed);
  run::judge(in, attempt);
  attempt.perturbation = rec.perturbation;
  if (subBatch && !opts.allclose && rec.status == run::LaunchStatus::Ok)
    attempt.perturbation = "sub_batch: the case ran again on its leading rows, and those rows were compared";
  run::PhaseTimer controlTimer(ph ? &ph->control : nullptr);
  if (!opts.allclose) run::attributeByControl(run::ControlRun{job.contract, &plan, &c, c.seeds[k], wr, opts.threads}, attempt);
  return true;
}

// Runs every seed of one case (or the one a replay asks for); the first seed that does not
// pass decides, and a case passes when some seed passed and none failed.
CaseResult CaseRun::run() {
  r = describe(job, plan, c, opts);
  if (auto settled = tooLarge()) return *settled;
  if (auto settled = build()) return *settled;
  if (auto have = be.deviceMemoryBytes()) {  // the backend's own memory: the case must fit it
    std::string beyond = memoryObstacle(caseDeviceBytes(setup, streamed, r.repeats), have, "device memory", "the device has");
    if (!beyond.empty()) {
      r.verdict = Verdict::Skipped;
      r.reason = beyond + " free";
      finish(r);
      return r;
    }
  }
  if (streamed)
    if (auto settled = streamedObstacle()) return *settled;
  bool anyPass = false;
  CaseResult lastMistrusted, passed;
  // A PASS reports its seeds' closest approach to the tolerance, and their largest errors.
  auto keepClosest = [&](const CaseResult& a) {
    r.compared = std::max(r.compared, a.compared);
    r.maxAbsError = std::max(r.maxAbsError, a.maxAbsError);
    r.maxUlps = std::max(r.maxUlps, a.maxUlps);
    r.toleranceUsed = std::max(r.toleranceUsed, a.toleranceUsed);
    // Which oracle ran: the interpreter's fallback is said when any seed fell back.
    if (r.oracle.empty() || a.oracle.rfind("interpreter", 0) == 0) r.oracle = a.oracle;
  };
  // And whether each signature's condition held on some passing seed: the diagnosis weighs
  // conditions across cases, passing ones too (a `fails when C` that held on a passing case).
  auto keepConditions = [&](const CaseResult& a) {
    for (const auto& [name, held] : a.conditions) {
      auto it = std::find_if(r.conditions.begin(), r.conditions.end(), [&](const auto& x) { return x.first == name; });
      if (it == r.conditions.end()) r.conditions.emplace_back(name, held);
      else it->second = it->second || held;
    }
  };
  for (size_t k = 0; k < c.seeds.size(); ++k) {
    if (opts.onlySeedIndex && *opts.onlySeedIndex != k) continue;
    CaseResult attempt = r;
    attempt.seed = c.seeds[k];
    attempt.seedIndex = k;
    if (streamed) {
      big.seed = c.seeds[k];
      run::setMarks(setup, caseMarks(opts, c.seeds[k], c.number));  // big.setup is &setup
      run::PhaseTimer streamTimer(ph ? &ph->streamed : nullptr);
      try {
        run::runBigCase(big, attempt);
      } catch (const std::exception& e) {
        attempt.verdict = Verdict::Error;
        attempt.reason = std::string("the streamed case failed: ") + e.what();
      }
      if (attempt.verdict == Verdict::Timeout && be.interprets()) {
        // An interpreter that does not finish billions of cells in time says nothing about
        // the kernel: the case is beyond this backend, as one beyond its memory is.
        attempt.verdict = Verdict::Skipped;
        attempt.reason = "the " + be.name() + " backend did not finish interpreting this large case within --timeout (" +
                         std::to_string(static_cast<int>(big.timeoutSeconds)) +
                         " s); a kernel that writes every cell of it runs on a GPU (" + attempt.reason + ")";
        attempt.signatures.clear();
        finish(attempt);
        return attempt;
      }
      if (attempt.verdict == Verdict::Pass) {
        anyPass = true;
        passed = attempt;  // says on how many sampled cells it was judged
        keepClosest(attempt);
        continue;
      }
      attempt.repro = formatRepro(reproFor(job, attempt, "-", opts));  // no full inputs to digest
      if (attempt.verdict == Verdict::Mistrusted) {
        lastMistrusted = attempt;
        continue;
      }
      finish(attempt);
      return attempt;
    }
    std::vector<std::vector<uint8_t>> inputsOnly;
    if (!runSeed(k, attempt, inputsOnly)) {
      finish(attempt);
      return attempt;
    }
    if (attempt.verdict == Verdict::Pass) {
      anyPass = true;
      r.perturbation = attempt.perturbation;
      keepClosest(attempt);
      keepConditions(attempt);
      continue;
    }
    attempt.repro = formatRepro(reproFor(job, attempt, inputsDigest(inputsOnly), opts));
    if (attempt.verdict == Verdict::Mistrusted) {
      lastMistrusted = attempt;
      continue;
    }
    finish(attempt);
    return attempt;
  }
  if (!anyPass && !lastMistrusted.caseId.empty()) {
    finish(lastMistrusted);
    return lastMistrusted;
  }
  r.verdict = anyPass ? Verdict::Pass : Verdict::Skipped;
  if (!anyPass) r.reason = "no seed selected";
  if (anyPass && streamed) {
    r.reason = passed.reason;
    r.compared = passed.compared;
  }
  finish(r);
  return r;
}

// `loadError`: set when the worker could not load the kernel (then the result means nothing).
CaseResult runCase(const Job& job, const plan::Plan& plan, const plan::Case& c, backend::Backend& be,
                   const backend::Prepared& prepared, run::Worker& worker, const RunOptions& opts,
                   std::string& loadError) {
  CaseRun run(job, plan, c, be, prepared, worker, opts);
  CaseResult r = run.run();
  loadError = run.loadError;
  return r;
}

}  // namespace

uint64_t caseMarks(const RunOptions& opts, uint64_t caseSeed, size_t caseNumber) {
  return opts.marks ? *opts.marks : run::marksKey(opts.seed, caseSeed, caseNumber);
}

std::string caseInputsDigest(const Job& job, const plan::Plan& plan, const plan::Case& c, size_t seedIndex, uint64_t marks) {
  run::CaseSetup setup = run::setupCase(*job.contract, plan, c);
  run::setMarks(setup, marks);
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t a = 0; a < setup.args.size(); ++a)
    if (!setup.args[a].output) inputs.push_back(run::makeStorage(setup, plan, c, a, c.seeds.at(seedIndex)));
  return inputsDigest(inputs);
}

std::string reproLine(const Job& job, const CaseResult& r, const RunOptions& opts) {
  return r.repro.empty() ? formatRepro(reproFor(job, r, "-", opts)) : r.repro;
}

uint64_t caseHostBytes(const plan::Case& c) {
  uint64_t copies = 4 + static_cast<uint64_t>(std::max<int64_t>(1, c.repeats));
  uint64_t storage = c.memoryBytes;
  uint64_t oracle = c.maxElements * 8ull * 6ull;  // inputs, outputs, oracle and tolerance in f64
  if (storage > UINT64_MAX / copies) return UINT64_MAX;
  uint64_t total = storage * copies;
  return total > UINT64_MAX - oracle ? UINT64_MAX : total + oracle;
}

uint64_t caseDeviceBytes(const run::CaseSetup& setup, bool streamed, int64_t repeats) {
  uint64_t total = 0;
  for (const auto& a : setup.args) {
    uint64_t image = a.imageBytes();
    total += image;
    if (streamed && !a.output && !a.scalar) total += a.storageBytes();  // the pristine copy
    if (streamed && a.output && repeats > 1) total += image;            // later launches' copy
  }
  return total;
}

std::string memoryObstacle(uint64_t need, std::optional<uint64_t> have, const std::string& what, const std::string& holder) {
  if (!have || need <= *have) return "";
  return "needs about " + humanBytes(need) + " of " + what + "; " + holder + " " + humanBytes(*have);
}

std::optional<uint64_t> availableHostBytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    std::fclose(f);
    if (found) return static_cast<uint64_t>(kb) * 1024;
  }
  long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(size);
  return std::nullopt;
}

// Whether case `c` is within `s` (a suite entry's `supports`, or the command line's --dims
// and --layouts): every dim in its range, every dtype among those listed, every layout kind.
static bool within(const plan::Plan& plan, const plan::Case& c, const Supports& s) {
  for (const auto& [dim, v] : c.dims) {
    auto it = s.dims.find(dim);
    if (it != s.dims.end() && (v < it->second.first || v > it->second.second)) return false;
  }
  for (const auto& [var, dt] : c.dtypes) {
    auto it = s.dtypes.find(var);
    if (it == s.dtypes.end()) it = s.dtypes.find("*");
    if (it != s.dtypes.end() && std::find(it->second.begin(), it->second.end(), dt) == it->second.end()) return false;
  }
  if (!s.layouts.empty())
    for (const auto& [name, k] : c.layouts)
      for (const auto& t : plan.tensors)
        if (t.name == name && k < t.layouts.size() &&
            std::find(s.layouts.begin(), s.layouts.end(), layoutKind(t.layouts[k].text)) == s.layouts.end())
          return false;
  return true;
}

std::vector<const plan::Case*> selectCases(const plan::Plan& plan, const Supports& s, const RunOptions& opts) {
  std::vector<const plan::Case*> out;
  // --dtype X narrows the dtype variables that take X in some case (embedding's T, not its
  // index dtype I); a plan where none does has no case at X.
  std::set<std::string> narrowed;
  for (const plan::Case& c : plan.cases)
    for (const auto& [var, dt] : c.dtypes)
      if (dt == opts.dtype) narrowed.insert(var);
  if (!opts.dtype.empty() && narrowed.empty()) return out;
  size_t position = 0;
  for (const plan::Case& c : plan.cases) {
    if (opts.onlyCase && c.number != opts.onlyCase) continue;
    bool claimed = within(plan, c, s) && within(plan, c, opts.narrow);
    for (const auto& [var, dt] : c.dtypes)
      if (narrowed.count(var) && dt != opts.dtype) claimed = false;
    if (!claimed) continue;
    if (position++ % opts.shardCount != opts.shardIndex) continue;
    out.push_back(&c);
  }
  return out;
}

Selection previewSelection(const Job& job, const RunOptions& opts) {
  Selection sel;
  plan::Options po;
  po.seed = opts.seed;
  po.problemDims = opts.problemDims;
  plan::Plan plan = plan::makePlan(*job.contract, po);
  if (opts.rewritePlan) opts.rewritePlan(plan);
  sel.planned = plan.cases.size();
  for (const plan::Case& c : plan.cases) {
    for (const auto& [dim, v] : c.dims) sel.dims.insert(dim);
    if (within(plan, c, job.supports)) ++sel.withinSupports;
  }
  RunOptions all = opts;
  all.shardIndex = 0;
  all.shardCount = 1;
  sel.selected = selectCases(plan, job.supports, all).size();
  return sel;
}

JobStats runJob(const Job& job, const RunOptions& opts, const Sink& sink, const Progress& progress) {
  JobStats stats;
  plan::Options po;
  po.seed = opts.seed;
  po.problemDims = opts.problemDims;
  plan::Plan plan = plan::makePlan(*job.contract, po);
  if (opts.rewritePlan) opts.rewritePlan(plan);
  stats.planned = plan.cases.size();
  std::vector<const plan::Case*> cases = selectCases(plan, job.supports, opts);
  stats.selected = cases.size();
  const std::string planId = report::sha256Hex(plan::planJson(plan).dump()).substr(0, 16);

  std::unique_ptr<backend::Backend> be = backend::makeBackend(job.backend);
  backend::Availability avail = be->probe();
  backend::Prepared prepared;
  std::string buildError;
  if (avail.available) {
    try {
      prepared = be->prepare(job.kernel);
    } catch (const backend::BackendError& e) {
      buildError = e.what();
    }
    bool perturbed = !opts.allclose && std::any_of(cases.begin(), cases.end(), [](const plan::Case* c) { return c->perturb != backend::perturb::kNone; });
    if (perturbed && buildError.empty()) be->preparePerturbation();
  }
  // Made after prepare() and preparePerturbation(): the worker process forks with their results.
  bool reuse = opts.workers == run::WorkerPolicy::Reuse || (opts.workers == run::WorkerPolicy::Auto && be->reusesWorker());
  std::vector<std::unique_ptr<run::Worker>> workers;  // one per lane (--devices)
  for (const std::string& device : opts.devices.empty() ? std::vector<std::string>{""} : opts.devices) {
    workers.push_back(std::make_unique<run::Worker>(reuse, true, device));
    if (avail.available && buildError.empty()) workers.back()->keepCellFor(*be, prepared, job.kernel.entry);
  }
  run::Worker& worker = *workers.front();
  // The cases to run: those not reported already (--resume).
  std::vector<const plan::Case*> todo;
  for (const plan::Case* c : cases)
    if (opts.finished.count(report::resumeKey(describe(job, plan, *c, opts)))) ++stats.resumed;
    else todo.push_back(c);
  if (avail.available && !buildError.empty() && !todo.empty())
    stats.kernelError = "the kernel could not be built: " + buildError;  // case-independent: said once, no case runs
  struct Outcome {
    CaseResult result;
    std::string loadError;
  };
  std::vector<Outcome> outcomes(stats.kernelError.empty() ? todo.size() : 0);
  std::vector<CaseResult> ran;  // for the diagnosis
  auto work = [&](size_t i, size_t lane) {
    const plan::Case& c = *todo[i];
    Outcome& o = outcomes[i];
    if (!avail.available) {
      o.result = describe(job, plan, c, opts);
      o.result.verdict = Verdict::Skipped;
      o.result.reason = avail.reason;
    } else {
      o.result = runCase(job, plan, c, *be, prepared, *workers[lane], opts, o.loadError);
    }
  };
  auto emit = [&](size_t i) {
    Outcome& o = outcomes[i];
    if (!o.loadError.empty()) {
      stats.kernelError = "the kernel could not be loaded: " + o.loadError;
      return false;
    }
    CaseResult& r = o.result;
    if (r.verdict != Verdict::Pass && r.repro.empty())
      r.repro = formatRepro(reproFor(job, r, "-", opts));  // inputs not generated: nothing to compare
    r.plan = planId;
    sink(r);
    bool stop = opts.stopAfter && opts.stopAfter(r);
    ran.push_back(std::move(r));
    return !stop;
  };
  auto before = [&](size_t i) {
    if (progress) progress(stats.resumed + i, cases.size(), todo[i]->id);
  };
  // A job that stops after a result (mutate/) runs one case at a time.
  size_t lanes = opts.stopAfter ? 1 : workers.size();
  run::runInLanes(outcomes.size(), lanes, work, emit, before);
  if (opts.diagnose && !opts.allclose && avail.available && buildError.empty() && stats.kernelError.empty()) {
    diagnose::ProbeContext probes;
    probes.contract = job.contract;
    probes.plan = plan;
    probes.worker.backend = be.get();
    probes.worker.prepared = prepared;
    probes.worker.entry = job.kernel.entry;
    probes.worker.timeoutSeconds = opts.timeoutSeconds;
    probes.worker.worker = &worker;
    probes.threads = opts.threads;
    diagnose::DiagnoseInput in{job.contract, &plan, &ran, &probes,
                               [&](uint64_t seed, size_t number) { return caseMarks(opts, seed, number); }, {}};
    if (job.backend == "cuda")
      in.racecheck = [&](const report::CaseResult& r) {
        SanitizeRequest q;
        q.tool = "racecheck";
        q.backend = r.backend;
        q.verdict = r.verdict;
        q.repro = r.repro;
        q.timeoutSeconds = opts.timeoutSeconds;
        return sanitizeCase(q);
      };
    stats.diagnosis = diagnose::diagnose(in);
  }
  return stats;
}

}  // namespace kc::check
