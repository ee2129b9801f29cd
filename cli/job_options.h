#pragma once
// The flags of the commands that run jobs (check, replay, calibrate): the targets, -I, --impl,
// --op and --backend; and building the jobs (checker/jobs.h) with the diagnostics printed.
#include <vector>

#include "checker/jobs.h"
#include "cli/cli.h"

namespace CLI {
class App;
}

namespace kc::driver {

void addJobOptions(CLI::App* sub, check::JobOptions& o);

// check::buildJobs, then the diagnostics and any error printed. Returns an exit code:
// kExitOk, or kExitInput after printing why.
int buildJobs(Compilation& c, check::JobOptions& o, const GlobalOptions& opts, std::vector<check::Job>& jobs);

}  // namespace kc::driver
