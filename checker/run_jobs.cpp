#include "checker/run_jobs.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace kc::check {

void runJobs(const std::vector<Job>& jobs, const std::vector<RunOptions>& opts, size_t parallel,
             const JobCaseSink& onCase, const JobDone& onJob, const JobProgress& progress) {
  size_t n = std::max<size_t>(1, std::min(parallel, jobs.size()));
  if (n == 1) {
    for (size_t i = 0; i < jobs.size(); ++i) {
      Progress p;
      if (progress) p = [&, i](size_t done, size_t total, const std::string& current) { progress(i, done, total, current); };
      JobStats st = runJob(jobs[i], opts[i], [&, i](const report::CaseResult& r) { onCase(i, r); }, p);
      onJob(i, st);
    }
    return;
  }
  // Each job's results and stats, filled by a pool thread, handed on here in job order.
  struct Done {
    std::vector<report::CaseResult> results;
    JobStats stats;
    std::exception_ptr error;
    bool finished = false;
  };
  std::vector<Done> done(jobs.size());
  std::mutex lock;
  std::condition_variable changed;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  auto pool = [&] {
    for (size_t i = next++; i < jobs.size() && !stop; i = next++) {
      Done& d = done[i];
      try {
        d.stats = runJob(jobs[i], opts[i], [&d](const report::CaseResult& r) { d.results.push_back(r); });
      } catch (...) {
        d.error = std::current_exception();
      }
      std::lock_guard<std::mutex> g(lock);
      d.finished = true;
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 0; t < n; ++t) threads.emplace_back(pool);
  std::exception_ptr failure;
  try {
    for (size_t i = 0; i < jobs.size(); ++i) {
      std::unique_lock<std::mutex> g(lock);
      changed.wait(g, [&] { return done[i].finished; });
      g.unlock();
      Done& d = done[i];
      if (d.error) std::rethrow_exception(d.error);
      for (const auto& r : d.results) onCase(i, r);
      onJob(i, d.stats);
      d.results.clear();
      d.results.shrink_to_fit();
    }
  } catch (...) {
    failure = std::current_exception();
    stop = true;
  }
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kc::check
