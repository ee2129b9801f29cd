// The full check vs a plain allclose (issue 9, bench 1). Per kernel, the wall time of the full
// standard check, `kcontract check --op NAME --impl KERNEL --dtype f32` (every case of the op's
// standard contract std.op.NAME@1, with every class it applies: the one-line check a benchmark
// or an RL reward loop runs, docs/design.md §8), against a 5-seed allclose of the same kernel at
// one friendly shape of the same contract (calibration's harness: plan::friendlyPlan,
// run::Allclose, atol = rtol = 1e-2). Compilation is excluded: each kernel is built once
// before either is timed. Goal: check <= 3x allclose.
//   build/bench/check_bench [--backend host|cuda] [--timeout S] [--baseline] [--own] [--oracle MODE] [--oracle-baseline]
//                           [--op NAME IMPL[:ENTRY]]... [CONTRACT IMPL[:ENTRY]]...
// Without kernels: the softmax and matmul examples of the backend (host: .c; cuda: .cu), from
// examples/ in the current folder (the repository root, where the bundle's copy runs), else
// from the source tree when it runs from its build tree. The standard library comes from the
// data folder, found as kcontract finds it (stdlib/data_root.h: KC_HOME, which the bundle's
// wrapper sets, or the source tree).
// --own also times each example against its own contract (examples/NAME/NAME.kcontract,
// every f32 case its protocol plans: a heavier plan, up to 64 x 262144 and 1000 x 65536).
// CONTRACT IMPL times a kernel against any contract the same way. --baseline also times each
// check as it ran before worker reuse and machine-wide oracle threads: a fresh worker process
// per run (a CUDA context each) and 2 oracle threads. --oracle MODE: check --oracle for every
// timed check (default auto: the compiled oracle on CUDA); --oracle-baseline also times each
// check with the interpreter, in the same run (docs/oracle.md, "The compiled oracle").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/check.h"
#include "checker/jobs.h"
#include "compiler/plan/planner.h"
#include "stdlib/data_root.h"

namespace {

namespace fs = std::filesystem;
using kc::report::CaseResult;
using kc::report::Verdict;

struct Run {
  double seconds = 0;
  size_t cases = 0;
  std::vector<std::pair<double, std::string>> slowest;  // (seconds, case and dims), slowest first
  size_t counts[kc::report::kVerdictCount] = {};
  kc::run::PhaseTimes phases;
  double beforeFirst = 0;   // planning, the backend's probe, prepare and perturbation set-up
  double outsideCases = 0;  // all of the job's time outside its cases (beforeFirst included)
};

// Where the check's time went, summed over its cases and seeds.
void printPhases(const char* label, const Run& r) {
  const kc::run::PhaseTimes& p = r.phases;
  std::printf("  %s phases: setup %.2f s, inputs %.2f s, worker %.2f s, oracle %.2f s, postconditions %.2f s, "
              "other checks %.2f s, sub-batches %.2f s, control runs %.2f s, streamed %.2f s; outside cases %.2f s "
              "(%.2f s before the first)\n",
              label, p.setup, p.inputs, p.worker, p.oracle, p.posts, p.judgeRest, p.batch, p.control, p.streamed,
              r.outsideCases, r.beforeFirst);
}

Run timeJob(const kc::check::Job& job, kc::check::RunOptions opts) {
  Run r;
  opts.phases = &r.phases;
  auto start = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double casesSeconds = 0;
  kc::check::runJob(job, opts, [&](const CaseResult& c) {
    casesSeconds += c.seconds;
    if (r.cases == 0) r.beforeFirst = since() - c.seconds;
    ++r.cases;
    ++r.counts[static_cast<int>(c.verdict)];
    std::string what = c.caseId;
    for (const auto& [d, v] : c.dims) what += " " + d + "=" + std::to_string(v);
    r.slowest.emplace_back(c.seconds, what);
  });
  std::sort(r.slowest.rbegin(), r.slowest.rend());
  if (r.slowest.size() > 8) r.slowest.resize(8);
  r.seconds = since();
  r.outsideCases = r.seconds - casesSeconds;
  return r;
}

std::string verdicts(const Run& r) {
  std::string s;
  for (int v = 0; v < kc::report::kVerdictCount; ++v)
    if (r.counts[v]) s += (s.empty() ? "" : " ") + std::string(kc::report::verdictName(static_cast<Verdict>(v))) + " " + std::to_string(r.counts[v]);
  return s;
}

struct Target {
  std::string label;     // what is checked: "standard check (--op softmax)", "own contract"
  kc::check::JobOptions job;
  bool goal = true;      // held to the goal (--own figures are for comparison only)
};

// Times every job of one target; false when a goal was missed or a kernel could not be built.
bool benchTarget(const Target& t, const std::string& backend, double timeout, bool baseline, const std::string& oracle,
                 bool oracleBaseline) {
  kc::Compilation c;
  kc::check::JobOptions jo = t.job;
  std::vector<kc::check::Job> jobs;
  kc::check::JobError error;
  bool built = kc::check::buildJobs(c, jo, false, jobs, error);
  c.diags.print(std::cerr, false);
  if (!error.message.empty()) std::cerr << error.message << "\n";
  if (!built || jobs.empty()) return false;
  bool met = true;
  for (const kc::check::Job& job : jobs) {
    auto be = kc::backend::makeBackend(backend);
    kc::backend::Availability avail = be->probe();
    if (!avail.available) {
      std::printf("%s: backend %s unavailable (%s): skipped\n", job.kernel.path.c_str(), backend.c_str(), avail.reason.c_str());
      continue;
    }
    try {
      // The builds, outside both timings (the cache serves both runs): the kernel, and what the
      // backend's perturbations need (on CUDA the noise kernel, built by nvcc on first use).
      be->prepare(job.kernel);
      be->preparePerturbation();
    } catch (const std::exception& e) {
      std::printf("%s: cannot be built: %s\n", job.kernel.path.c_str(), e.what());
      met = false;
      continue;
    }
    kc::check::RunOptions full;
    full.dtype = "f32";
    full.timeoutSeconds = timeout;
    full.includeDirs = jo.includeDirs;
    full.oracle = oracle;
    kc::run::Allclose ac;
    kc::check::RunOptions plain = full;
    plain.allclose = &ac;
    plain.rewritePlan = [&](kc::plan::Plan& p) { p = kc::plan::friendlyPlan(*job.contract, {}, 5); };
    Run a = timeJob(job, plain);
    Run f = timeJob(job, full);
    double ratio = a.seconds > 0 ? f.seconds / a.seconds : 0;
    bool ok = ratio <= 3.0 && f.counts[static_cast<int>(Verdict::Pass)] > 0;
    if (t.goal) met = met && ok;
    std::string goal = !t.goal ? "for comparison: the goal is the standard check's" : ok ? "goal <= 3x: met" : "goal <= 3x: NOT met";
    std::printf("%s: %s, %s\n  allclose: %zu case(s), 5 seeds: %.2f s (%s)\n  check:    %zu cases: %.2f s (%s)\n"
                "  ratio: %.1fx (%s)\n",
                fs::path(job.kernel.path).filename().c_str(), t.label.c_str(), job.contract->id.c_str(), a.cases,
                a.seconds, verdicts(a).c_str(), f.cases, f.seconds, verdicts(f).c_str(), ratio, goal.c_str());
    for (const auto& [sec, what] : f.slowest) std::printf("  slowest: %.2f s  %s\n", sec, what.c_str());
    printPhases("allclose", a);
    printPhases("check", f);
    std::printf("  (oracle: %s, %u interpreter threads; workers: %s)\n", oracle.c_str(), full.threads,
                be->reusesWorker() ? "one per kernel, reused" : "a fresh one per run");
    if (oracleBaseline) {
      kc::check::RunOptions interp = full;
      interp.oracle = "interpreter";
      Run b = timeJob(job, interp);
      std::printf("  oracle baseline, the interpreter: %zu cases: %.2f s (%s), %.1fx allclose; --oracle %s is %.2fx faster\n",
                  b.cases, b.seconds, verdicts(b).c_str(), a.seconds > 0 ? b.seconds / a.seconds : 0, oracle.c_str(),
                  f.seconds > 0 ? b.seconds / f.seconds : 0);
      printPhases("interpreter", b);
    }
    if (baseline) {
      kc::check::RunOptions before = full;
      before.workers = kc::run::WorkerPolicy::Fresh;
      before.threads = 2;
      Run b = timeJob(job, before);
      std::printf("  baseline, fresh workers and 2 oracle threads: %zu cases: %.2f s (%s), %.1fx allclose; "
                  "now %.2fx faster\n",
                  b.cases, b.seconds, verdicts(b).c_str(), a.seconds > 0 ? b.seconds / a.seconds : 0,
                  f.seconds > 0 ? b.seconds / f.seconds : 0);
      for (const auto& [sec, what] : b.slowest) std::printf("  baseline slowest: %.2f s  %s\n", sec, what.c_str());
    }
  }
  return met;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = kc::backend::kHostBackend;
  double timeout = 60;
  bool baseline = false, own = false, oracleBaseline = false;
  std::string oracle = "auto";
  std::vector<Target> targets;
  auto usage = [] {
    std::fprintf(stderr, "usage: check_bench [--backend host|cuda] [--timeout S] [--baseline] [--own] [--oracle MODE] [--oracle-baseline] "
                         "[--op NAME IMPL[:ENTRY]]... [CONTRACT IMPL[:ENTRY]]...\n");
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) backend = argv[++i];
    else if (a == "--timeout" && i + 1 < argc) timeout = std::atof(argv[++i]);
    else if (a == "--baseline") baseline = true;
    else if (a == "--own") own = true;
    else if (a == "--oracle" && i + 1 < argc) oracle = argv[++i];
    else if (a == "--oracle-baseline") oracleBaseline = true;
    else if (a == "--op" && i + 2 < argc) {
      Target t{"standard check (--op " + std::string(argv[i + 1]) + ")", {}};
      t.job.op = argv[i + 1];
      t.job.impl = argv[i + 2];
      targets.push_back(std::move(t));
      i += 2;
    } else if (a.rfind("--", 0) != 0 && i + 1 < argc) {
      Target t{"contract " + a, {}};
      t.job.targets = {a};
      t.job.impl = argv[++i];
      targets.push_back(std::move(t));
    } else return usage();
  }
  try {
    kc::stdlib::dataRoot();
  } catch (const kc::stdlib::DataRootError& e) {
    std::fprintf(stderr, "check_bench: %s\n", e.what());
    return 2;
  }
  // The examples are not data but the repository's: the current folder's, or in a build tree
  // (where the data folder is the source tree) the source tree's.
  bool fromSource = !fs::is_directory("examples") && kc::stdlib::dataRoot().origin == kc::stdlib::DataOrigin::BuildTree;
  std::string root = fromSource ? kc::stdlib::dataDir() : fs::current_path().string();
  if (targets.empty()) {
    std::string ext = backend == kc::backend::kCudaBackend ? ".cu" : ".c";
    // The op, and the example kernel's entry (its own contract names the kernel acme_*).
    for (auto [op, entry] : {std::pair{"softmax", "kc_acme_softmax"}, std::pair{"matmul", "kc_acme_gemm"}}) {
      std::string dir = root + "/examples/" + op + "/";
      std::string impl = dir + op + ext;
      if (!fs::exists(impl)) {
        std::printf("%-8s no %s: skipped\n", op, impl.c_str());
        continue;
      }
      Target t{"standard check (--op " + std::string(op) + ")", {}};
      t.job.op = op;
      t.job.impl = impl + ":" + entry;
      targets.push_back(t);
      if (own) {
        Target o{"own contract", {}, false};
        o.job.targets = {dir + op + ".kcontract"};
        o.job.impl = impl;
        targets.push_back(o);
      }
    }
  }
  for (Target& t : targets) t.job.backend = backend;  // --backend may come after the kernels
  std::printf("check_bench: backend %s; full check (every planned f32 case) vs allclose (5 seeds, one friendly shape "
              "of the same contract); compilation excluded\n", backend.c_str());
  bool allMet = true;
  for (const Target& t : targets) allMet = benchTarget(t, backend, timeout, baseline, oracle, oracleBaseline) && allMet;
  return allMet ? 0 : 1;
}
