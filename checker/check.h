#pragma once
// Running the cases of one job — a kernel held to one contract on one backend — and
// giving each its verdict. The stages, in order, for every job:
//   plan      the contract's measurement plan for the base seed (compiler/plan)
//   select    the cases the kernel is held to: its claimed support, --dtype, the shard
//   probe     the backend on this machine; absent: every case SKIPPED with the reason
//   prepare   build the kernel once (cached); a build error: every case ERROR
//   run       per case and seed: inputs (run/case_setup), a run in the job's worker process
//             (run/worker), the verdict (run/judge); the first seed that does not pass decides
//   emit      each result as soon as it exists (the sink streams it)
//   diagnose  a failing job's causes, from the evidence and diagnostic re-runs (diagnose/)
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backends/backend.h"
#include "checker/device_oracle/oracle_engine.h"
#include "checker/report/diagnosis.h"
#include "checker/report/result.h"
#include "checker/report/summary.h"
#include "checker/run/case_setup.h"
#include "checker/run/judge.h"
#include "checker/run/phase_times.h"
#include "checker/run/worker.h"
#include "checker/suite.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::check {

struct Job {
  std::string label;  // for reports
  const sema::ContractInfo* contract = nullptr;
  std::string contractFile;
  int contractLine = 0;
  backend::KernelRef kernel;
  std::string backend = backend::kHostBackend;
  Supports supports;
  std::optional<report::ExpectedOutcome> expect;  // the suite's `expect`
  std::string origin;  // where the job was asked for: "suite.yaml:LINE" for a suite entry, else ""
};

struct RunOptions {
  uint64_t seed = 0;                   // --seed: the base seed of every plan
  std::string dtype;                   // --dtype: narrows every dtype variable to this dtype
  Supports narrow;                     // --dims, --layouts: narrows every job's cases as a suite's supports do
  // --problem-shape: one more case per dtype at these dims (plan::Options::problemDims)
  std::vector<std::pair<std::string, int64_t>> problemDims;
  double timeoutSeconds = 10;          // per case and seed: a worker running longer is killed
  // --oracle: interpreter, host, cuda or auto (device_oracle/oracle_engine.h); the engines
  // are shared by every job of the run (and every copy of these options).
  std::string oracle = "auto";
  std::shared_ptr<device_oracle::OracleEngines> oracleEngines = std::make_shared<device_oracle::OracleEngines>();
  uint64_t maxCaseBytes = 4ull << 30;  // host memory a case may use; above: SKIPPED
  // Oracle threads: the machine's hardware threads (a GPU machine's host cores judge its
  // large cases).
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  // --stream-cells N: run every case on the streamed path (run/big_case.h), judged on about
  // N sampled cells; 0: only cases too large for host memory on a backend with its own.
  int64_t streamCells = 0;
  size_t shardIndex = 0, shardCount = 1;
  // --workers: one worker process per run (fresh), one per job while runs end cleanly
  // (reuse), or as the backend prefers (auto: reuse on CUDA, for its context).
  run::WorkerPolicy workers = run::WorkerPolicy::Auto;
  // --devices: one lane of workers per GPU, each the CUDA_VISIBLE_DEVICES its cells see;
  // case i of a job runs on lane i % lanes (run/lanes.h) and results are reported in plan
  // order. Empty: one lane, as the checker's environment has it. A job's diagnosis re-runs
  // on the first lane.
  std::vector<std::string> devices;
  std::set<std::string> finished;      // resume keys (report::resumeKey) of cases already reported
  std::vector<std::string> includeDirs;
  size_t onlyCase = 0;                 // replay: just this case number
  std::optional<size_t> onlySeedIndex; // replay: just this seed
  // replay: the run's marks key from the reproducer (run/marks.h); otherwise each run of a
  // case draws its own, marksKey(seed, the case's seed, the case's number).
  std::optional<uint64_t> marks;
  // Calibration: rewrite the plan before cases are selected (a friendly shape, 5 seeds), and
  // judge as a plain allclose harness (run/judge.h) instead of by the contract.
  std::function<void(plan::Plan&)> rewritePlan;
  const run::Allclose* allclose = nullptr;
  run::PhaseTimes* phases = nullptr;   // benchmarks: where the time goes (run/phase_times.h)
  // A failing job's diagnosis with its re-runs (checker/diagnose/); replay and calibration
  // judge cases one by one and leave it off.
  bool diagnose = true;
  // Mutation analysis (mutate/): each run's launch record (its output images) with the case
  // and seed, before the verdict; and, after each case's result, whether the job stops there
  // (a mutant already killed need not run the rest of the plan).
  std::function<void(const plan::Case&, size_t seedIndex, const run::CaseSetup&, const run::LaunchRecord&)> onLaunch;
  std::function<bool(const report::CaseResult&)> stopAfter;
  // replay --inputs (explicit_inputs.h): rewrites input `arg`'s storage bytes after they are
  // drawn and before the precondition check and the run.
  std::function<void(const run::CaseSetup&, size_t arg, std::vector<uint8_t>& storage)> explicitInputs;
};

struct JobStats {
  size_t planned = 0;      // cases in the plan
  size_t selected = 0;     // held to the kernel's claims and the shard
  size_t resumed = 0;      // already reported (--resume)
  // The kernel could not be found, built or loaded: no case of the job ran (none was sent to
  // the sink) and this says why, with the compiler's whole output. An input error, said once.
  std::string kernelError;
  // The causes its failing cases support, with the re-runs that showed them (empty when no
  // case failed).
  report::Diagnosis diagnosis;
};

using Sink = std::function<void(const report::CaseResult&)>;
// Called before each case runs (for a progress bar): done so far, total.
using Progress = std::function<void(size_t, size_t, const std::string&)>;

JobStats runJob(const Job& job, const RunOptions& opts, const Sink& sink, const Progress& progress = {});

// The cases of `plan` a kernel claiming `supports` is held to, in plan order.
std::vector<const plan::Case*> selectCases(const plan::Plan& plan, const Supports& supports, const RunOptions& opts);

// What a job's narrowing selects, before anything runs (a check that would run nothing is an
// input error: docs/checking.md). The plan's cases; those within the suite entry's
// `supports`; those also within --dtype, --dims and --layouts (every shard together); the
// dims the plan's cases have.
struct Selection {
  size_t planned = 0;
  size_t withinSupports = 0;
  size_t selected = 0;
  std::set<std::string> dims;
};
Selection previewSelection(const Job& job, const RunOptions& opts);

// The digest of the inputs seed `seedIndex` of case `c` generates (repro.h's `inputs=`).
// `marks`: the run's marks key (the poison in the inputs' gaps is the run's).
std::string caseInputsDigest(const Job& job, const plan::Plan& plan, const plan::Case& c, size_t seedIndex, uint64_t marks);
// The marks key of the run of case `c` at `caseSeed`: opts.marks, else marksKey(opts.seed, caseSeed, c's number).
uint64_t caseMarks(const RunOptions& opts, uint64_t caseSeed, size_t caseNumber);

// The reproducer line of a result (repro.h): its own, or one built for it (a PASS has none;
// `--sanitize` re-runs chosen passing cases through one). Inputs not re-checked ("-").
std::string reproLine(const Job& job, const report::CaseResult& r, const RunOptions& opts);

// What a case needs of host memory, roughly: its storage times the copies the checker keeps,
// plus the oracle's f64 tensors.
uint64_t caseHostBytes(const plan::Case& c);
// The device memory a case takes on a backend with memory of its own: every tensor's image
// (canaries included), and on the streamed path a pristine copy of every input and, with
// repeats, a second copy of every output (run/big_case.cpp).
uint64_t caseDeviceBytes(const run::CaseSetup& setup, bool streamed, int64_t repeats);
// Why a case does not fit ("" when it does): `need` bytes against `have` bytes of `what`
// ("device memory", "host memory"), with both in the reason: "needs about 281.5 TB of device
// memory; the device has 141.0 GB free".
std::string memoryObstacle(uint64_t need, std::optional<uint64_t> have, const std::string& what, const std::string& holder);
// The host memory available now (/proc/meminfo MemAvailable, else sysconf's free pages);
// nullopt when neither answers.
std::optional<uint64_t> availableHostBytes();

}  // namespace kc::check
