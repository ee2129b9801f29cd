#pragma once
// What passes between the checker and a worker process for one run of a case
// (checker/run/worker.h). Everything lives in one shared mapping per run, a memfd the checker
// hands to the worker over a Unix socket:
//   Report        what the worker writes back (phase, return code, messages)
//   request       the arguments (dtype, shape, strides, storage), repeats, perturbation and
//                 the offset of every image in this mapping, encoded by encodeRequest()
//   images        per argument its pristine image (canary | storage | canary), then the
//                 images that come back (outputs: one per launch; inputs: one)
// The worker answers each run with one byte on the socket: 'k' (it waits for the next run)
// or 'x' (it exits: the run failed, or the worker is not reused).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/perturbations.h"
#include "checker/run/case_setup.h"

namespace kc::run::wire {

inline constexpr size_t kMessageBytes = 4096;

// The worker's report, at offset 0 of the mapping.
struct Report {
  int phase = 0;    // 0 started, 1 loaded, 2 done, -1 backend error, -2 nonzero rc, -3 device fault,
                    // -4 the kernel could not be loaded
  int rc = 0;
  int launches = 0;
  int settled = 0;  // 1 once every result of the run is written (waiting for the device may follow)
  char message[kMessageBytes] = {};
  char resource[kMessageBytes] = {};      // the backend's resourceReport() after the last launch
  char perturbation[kMessageBytes] = {};  // the backend's setPerturbation() line
};

struct Request {
  std::vector<ArgSpec> args;  // ABI order
  int repeats = 1;
  bool deviceSync = false;
  std::string perturb = backend::perturb::kNone;
  std::vector<uint64_t> inOffsets;                 // per argument: its pristine image
  std::vector<std::vector<uint64_t>> backOffsets;  // per argument: the images that come back
};

// Where the request starts: past the report, on a page boundary.
size_t requestOffset();
std::vector<uint8_t> encodeRequest(const Request& r);
// Throws std::runtime_error on a truncated or malformed request.
Request decodeRequest(const uint8_t* bytes, size_t size);

// One run over the socket: the mapping's descriptor and size. false when the peer is gone.
bool sendRun(int socket, int memfd, uint64_t bytes);
bool receiveRun(int socket, int& memfd, uint64_t& bytes);

}  // namespace kc::run::wire
