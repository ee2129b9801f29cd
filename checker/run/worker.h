#pragma once
// Runs a kernel in a worker process, so that a crash, an abort or a hang takes down only the
// worker: the checker forks, the child loads the kernel through the backend and launches it,
// and every byte the checker needs comes back through memory shared before the fork. A
// fresh worker runs every case.
//
// Buffers: each argument is allocated on the backend as an image, canary | storage | canary.
// Inputs are copied in from their pristine image before every launch; outputs from a
// template (canaries around poison). After each launch every output image comes back; after
// the first launch every input image comes back too (to catch a kernel writing its inputs).
#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "checker/run/case_setup.h"

namespace kc::run {

enum class LaunchStatus {
  Ok,        // every launch returned 0
  Nonzero,   // the kernel returned nonzero (rc)
  Crash,     // the worker died on a signal (signal), or reported a device fault (message)
  Timeout,   // the worker ran past the time limit and was killed
  Error,     // the backend could not load the kernel or allocate (message)
};

struct LaunchRecord {
  LaunchStatus status = LaunchStatus::Error;
  int rc = 0;
  int signal = 0;
  std::string message;  // backend error, device fault, or the signal's name
  std::string output;   // what the kernel printed (stdout and stderr), truncated
  int launches = 0;     // launches that completed
  std::string resource; // after every launch completed: the backend's resourceReport() ("" when none)
  double seconds = 0;   // wall time of the worker
  std::string perturbation;  // the backend's setPerturbation() line ("" when none was asked)
  // Per argument (ABI order): outputs: one image per launch; inputs: the image after launch 1.
  std::vector<std::vector<std::vector<uint8_t>>> images;
};

struct WorkerRequest {
  backend::Backend* backend = nullptr;
  backend::Prepared prepared;
  std::string entry;
  const CaseSetup* setup = nullptr;
  std::vector<std::vector<uint8_t>> storage;  // per argument: input bytes, or poison for outputs
  int repeats = 1;
  double timeoutSeconds = 10;
  bool deviceSync = false;  // wait for the whole device after each launch (the allclose harness)
  std::string perturb = "none";  // the case's perturbation (Backend::setPerturbation)
};

// An image: canary | storage | canary.
std::vector<uint8_t> makeImage(const std::vector<uint8_t>& storage);
// Whether both canaries of an image are intact.
bool canariesIntact(const std::vector<uint8_t>& image);

LaunchRecord runInWorker(const WorkerRequest& request);

// A launch's status and message from how its worker ended: killed after `timeoutSeconds`, a
// signal, or the phase it reached (0 started, 1 loaded, 2 done, -1 backend error, -2 nonzero
// rc, -3 device fault) and the backend's resource report. Shared by the streamed path.
void settleLaunch(LaunchRecord& rec, bool timedOut, double timeoutSeconds, int status, int phase,
                  const char* resource);

}  // namespace kc::run
