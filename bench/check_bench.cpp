// The full check vs a plain allclose (issue 9, bench 1): per kernel, the wall time of every
// case of its contract's plan (`kcontract check CONTRACT --impl KERNEL --dtype f32`), against
// a 5-seed allclose of the same kernel at one friendly shape (calibration's harness:
// plan::friendlyPlan, run::Allclose, atol = rtol = 1e-2). Compilation is excluded: each
// kernel is built once before either is timed. Goal: check <= 3x allclose.
//   build/bench/check_bench [--backend host|cuda] [--timeout S] [--baseline] [CONTRACT IMPL[:ENTRY]]...
// --baseline also times the full check as it ran before worker reuse and machine-wide oracle
// threads: a fresh worker process per run (a CUDA context each) and 2 oracle threads.
// Without pairs: the softmax and matmul examples of the backend (host: .c; cuda: .cu, the
// matmul one when examples/matmul/matmul.cu exists).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/check.h"
#include "compiler/driver/check_jobs.h"
#include "compiler/plan/planner.h"
#include "stdlib/stdlib_path.h"

namespace {

namespace fs = std::filesystem;
using kc::report::CaseResult;
using kc::report::Verdict;

struct Run {
  double seconds = 0;
  size_t cases = 0;
  std::vector<std::pair<double, std::string>> slowest;  // (seconds, case and dims), slowest first
  size_t counts[kc::report::kVerdictCount] = {};
};

Run timeJob(const kc::check::Job& job, const kc::check::RunOptions& opts) {
  Run r;
  auto start = std::chrono::steady_clock::now();
  kc::check::runJob(job, opts, [&](const CaseResult& c) {
    ++r.cases;
    ++r.counts[static_cast<int>(c.verdict)];
    std::string what = c.caseId;
    for (const auto& [d, v] : c.dims) what += " " + d + "=" + std::to_string(v);
    r.slowest.emplace_back(c.seconds, what);
  });
  std::sort(r.slowest.rbegin(), r.slowest.rend());
  if (r.slowest.size() > 3) r.slowest.resize(3);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string verdicts(const Run& r) {
  std::string s;
  for (int v = 0; v < kc::report::kVerdictCount; ++v)
    if (r.counts[v]) s += (s.empty() ? "" : " ") + std::string(kc::report::verdictName(static_cast<Verdict>(v))) + " " + std::to_string(r.counts[v]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = "host";
  double timeout = 60;
  bool baseline = false;
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) backend = argv[++i];
    else if (a == "--timeout" && i + 1 < argc) timeout = std::atof(argv[++i]);
    else if (a == "--baseline") baseline = true;
    else if (i + 1 < argc) pairs.emplace_back(a, argv[++i]);
    else {
      std::fprintf(stderr, "usage: check_bench [--backend host|cuda] [--timeout S] [--baseline] [CONTRACT IMPL[:ENTRY]]...\n");
      return 2;
    }
  }
  std::string root = kc::stdlib::sourceRoot();
  if (pairs.empty()) {
    std::string ext = backend == "cuda" ? ".cu" : ".c";
    for (const char* op : {"softmax", "matmul"}) {
      std::string impl = root + "/examples/" + op + "/" + op + ext;
      if (fs::exists(impl)) pairs.emplace_back(root + "/examples/" + op + "/" + op + ".kcontract", impl);
      else std::printf("%-8s no %s: skipped\n", op, impl.c_str());
    }
  }
  std::printf("check_bench: backend %s; full check (every planned f32 case) vs allclose (5 seeds, one friendly shape); "
              "compilation excluded\n", backend.c_str());
  bool allMet = true;
  for (const auto& [contract, impl] : pairs) {
    kc::Compilation c;
    kc::driver::JobOptions jo;
    jo.targets = {contract};
    jo.impl = impl;
    jo.backend = backend;
    std::vector<kc::check::Job> jobs;
    if (kc::driver::buildJobs(c, jo, {}, jobs) != kc::driver::kExitOk || jobs.empty()) return 2;
    for (const kc::check::Job& job : jobs) {
      auto be = kc::backend::makeBackend(backend);
      kc::backend::Availability avail = be->probe();
      if (!avail.available) {
        std::printf("%s: backend %s unavailable (%s): skipped\n", job.kernel.path.c_str(), backend.c_str(), avail.reason.c_str());
        continue;
      }
      try {
        be->prepare(job.kernel);  // the build, outside both timings (the cache serves both runs)
      } catch (const std::exception& e) {
        std::printf("%s: cannot be built: %s\n", job.kernel.path.c_str(), e.what());
        allMet = false;
        continue;
      }
      kc::check::RunOptions full;
      full.dtype = "f32";
      full.timeoutSeconds = timeout;
      full.includeDirs = jo.includeDirs;
      kc::run::Allclose ac;
      kc::check::RunOptions plain = full;
      plain.allclose = &ac;
      plain.rewritePlan = [&](kc::plan::Plan& p) { p = kc::plan::friendlyPlan(*job.contract, {}, 5); };
      Run a = timeJob(job, plain);
      Run f = timeJob(job, full);
      double ratio = a.seconds > 0 ? f.seconds / a.seconds : 0;
      bool met = ratio <= 3.0;
      allMet = allMet && met;
      std::printf("%s (%s)\n  allclose: %zu case(s), 5 seeds: %.2f s (%s)\n  check:    %zu cases: %.2f s (%s)\n"
                  "  ratio: %.1fx (goal <= 3x: %s)\n",
                  fs::path(job.kernel.path).filename().c_str(), job.contract->id.c_str(), a.cases, a.seconds,
                  verdicts(a).c_str(), f.cases, f.seconds, verdicts(f).c_str(), ratio, met ? "met" : "NOT met");
      for (const auto& [sec, what] : f.slowest) std::printf("  slowest: %.2f s  %s\n", sec, what.c_str());
      std::printf("  (%u oracle threads; workers: %s)\n", full.threads, be->reusesWorker() ? "one per kernel, reused" : "a fresh one per run");
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
  }
  return allMet ? 0 : 1;
}
