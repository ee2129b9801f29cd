#pragma once
// Runs a kernel in a worker process, so that a crash, an abort or a hang takes down only the
// worker: the checker forks, the child loads the kernel through the backend and launches it,
// and every byte the checker needs comes back through memory shared with it for the run
// (checker/run/worker_wire.h).
//
// A Worker is one such process kept across runs. Backends whose set-up is costly (a CUDA
// context, Backend::reusesWorker) keep it while runs end cleanly; the others, and every run
// that fails, crashes or times out, get a fresh one: nothing of a failed run reaches the next.
//
// Buffers: each argument is allocated on the backend as an image, canary | storage | canary.
// Inputs are copied in from their pristine image before every launch; outputs from a
// template (canaries around poison). After each launch every output image comes back; after
// the first launch every input image comes back too (to catch a kernel writing its inputs).
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "checker/run/case_setup.h"
#include "sandbox/cell.h"
#include "sandbox/cell_host.h"
#include "sandbox/output_capture.h"

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
  bool loadFailed = false;  // Error because the kernel could not be loaded (no case of it can run)
  std::string output;   // what the kernel printed (stdout and stderr), truncated
  int launches = 0;     // launches that completed
  std::string resource; // after every launch completed: the backend's resourceReport() ("" when none)
  double seconds = 0;   // wall time of the worker
  std::string perturbation;  // the backend's setPerturbation() line ("" when none was asked)
  // Per argument (ABI order): outputs: one image per launch; inputs: the image after launch 1.
  std::vector<std::vector<std::vector<uint8_t>>> images;
};

class Worker;

struct WorkerRequest {
  backend::Backend* backend = nullptr;
  backend::Prepared prepared;
  std::string entry;
  const CaseSetup* setup = nullptr;
  std::vector<std::vector<uint8_t>> storage;  // per argument: input bytes, or poison for outputs
  int repeats = 1;
  double timeoutSeconds = 10;
  bool deviceSync = false;  // wait for the whole device after each launch (the allclose harness)
  std::string perturb = backend::perturb::kNone;  // the case's perturbation (Backend::setPerturbation)
  Worker* worker = nullptr;      // the process to run in; none: a fresh one for this run alone
  // Without a worker: the GPU the run's cell sees (CUDA_VISIBLE_DEVICES; "" as the checker
  // has it). A worker's own device (Worker::device) wins.
  std::string device;
};

// How a job's runs are spread over worker processes (check --workers).
enum class WorkerPolicy {
  Auto,   // as the backend prefers (Backend::reusesWorker)
  Fresh,  // a fresh process for every run
  Reuse,  // one process while runs end cleanly
};
WorkerPolicy parseWorkerPolicy(const std::string& text);  // auto, fresh, reuse; throws std::invalid_argument

class Worker {
 public:
  // reuse: one process while runs end cleanly. keepCell: a fresh process per run is forked
  // from a cell kept for the kernel (sandbox/cell_host.h) where the machine allows it.
  // device: the GPU its cells see (CUDA_VISIBLE_DEVICES, check --devices); "" as the checker has it.
  explicit Worker(bool reuse, bool keepCell = true, std::string device = "")
      : reuse_(reuse), keepCell_(keepCell), device_(std::move(device)) {}
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // For a fresh worker where cells can be kept (sandbox/cell_host.h): sets up the kernel's
  // kept cell now, before a case's buffers exist, so that its pid 1 holds none of them. A
  // run does it itself when it was not called. Does nothing for a reused worker.
  void keepCellFor(backend::Backend& backend, const backend::Prepared& prepared, const std::string& entry);
  // One run of a case in this worker's process, started now if none is alive (or the
  // request is for another kernel). Throws backend::BackendError when no process can start.
  LaunchRecord run(const WorkerRequest& request);
  // Processes started so far (a reused worker: 1 while every run ends cleanly).
  int started() const { return started_; }
  const std::string& device() const { return device_; }

 private:
  void start(const WorkerRequest& request, size_t runBytes);
  void startHosted(const WorkerRequest& request, const sandbox::CellSpec& spec);
  void stop();     // closes the socket; the idle process exits
  void reap(int& status);
  bool running() const;
  void killProcess();
  int waitProcess();

  bool reuse_;
  bool keepCell_;
  std::string device_;
  pid_t pid_ = -1;  // the worker's cell of its own (-1: none)
  bool hosted_ = false;  // the worker was forked in host_ (pidfd_ is its handle)
  int socket_ = -1;
  int pidfd_ = -1;  // readable once the worker has exited (a child of it may hold the socket)
  std::unique_ptr<sandbox::Cell> cell_;      // the worker's cell of its own (sandbox/cell.h)
  std::unique_ptr<sandbox::CellHost> host_;  // the kernel's kept cell (fresh workers)
  const backend::Backend* hostBackend_ = nullptr;
  std::string hostArtefact_, hostEntry_;
  std::unique_ptr<sandbox::OutputCapture> output_;    // what the kernel prints, per run
  const backend::Backend* backend_ = nullptr;
  std::string artefact_, entry_;
  int started_ = 0;
};

// An image: canary | storage | canary, the canaries of the run's marks key (canaryPattern).
std::vector<uint8_t> makeImage(const std::vector<uint8_t>& storage, uint64_t marks);
// Whether both canaries of an image are intact.
bool canariesIntact(const std::vector<uint8_t>& image, uint64_t marks);

// The cell a backend's worker runs in: device nodes for the backends that may drive a GPU,
// an address-space limit for the host backend (`runBytes`: the run's shared mapping), and
// the kernel's own writable folder for run-time compiler caches (by `artefact`).
// `device`: the GPU it sees (CUDA_VISIBLE_DEVICES; "" as the checker has it).
sandbox::CellSpec workerCell(const backend::Backend& backend, size_t runBytes, const std::string& artefact,
                             const std::string& device);

// request.worker->run(request), or a run in a fresh worker of its own.
LaunchRecord runInWorker(const WorkerRequest& request);

// A launch's status and message from how its worker ended: killed after `timeoutSeconds`, a
// signal, or the phase it reached (0 started, 1 loaded, 2 done, -1 backend error, -2 nonzero
// rc, -3 device fault) and the backend's resource report. Shared by the streamed path.
void settleLaunch(LaunchRecord& rec, bool timedOut, double timeoutSeconds, int status, int phase,
                  const char* resource);

}  // namespace kc::run
