#pragma once
// The body of a worker process (checker/run/worker.h): serves runs from the checker over
// `socket` (checker/run/worker_wire.h) until the checker closes it, or until a run fails or,
// when `reuse` is false, after the first run. Never returns.
#include <string>

#include "backends/backend.h"

namespace kc::run {

[[noreturn]] void serveRuns(backend::Backend& be, const backend::Prepared& prepared, const std::string& entry,
                            int socket, bool reuse);

}  // namespace kc::run
