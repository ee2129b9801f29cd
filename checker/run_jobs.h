#pragma once
// Several jobs of one `kcontract check` at once (`--jobs N`), reported as if one ran after
// the other: each job's results reach `onCase` in plan order and its stats reach `onJob`,
// job after job in the order given, on the calling thread. With N = 1 each case is handed
// on as soon as it ran (streamed); with N > 1 a job's results are held until every job
// before it has been handed on, so a run cut short loses at most the jobs in flight.
#include <cstddef>
#include <functional>
#include <vector>

#include "checker/check.h"

namespace kc::check {

using JobCaseSink = std::function<void(size_t job, const report::CaseResult&)>;
using JobDone = std::function<void(size_t job, JobStats&)>;
// Progress of a job (N = 1 only: a bar for one job at a time).
using JobProgress = std::function<void(size_t job, size_t done, size_t total, const std::string& current)>;

void runJobs(const std::vector<Job>& jobs, const std::vector<RunOptions>& opts, size_t parallel,
             const JobCaseSink& onCase, const JobDone& onJob, const JobProgress& progress = {});

}  // namespace kc::check
