#include "checker/run/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "backends/host/compile_cache.h"
#include "compiler/plan/planner.h"
#include "checker/run/worker_process.h"
#include "checker/run/worker_wire.h"

namespace kc::run {

namespace {

// The run's mapping: a memfd the worker receives over the socket, mapped here too.
class RunMemory {
 public:
  RunMemory(size_t bytes, const std::string& name) : bytes_(bytes) {
    fd_ = memfd_create(name.c_str(), MFD_CLOEXEC);  // the run's marks: no fixed name to look for
    if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(bytes)) != 0)
      throw backend::BackendError("cannot create " + std::to_string(bytes) + " bytes of shared memory: " + std::strerror(errno));
    base_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (base_ == MAP_FAILED) {
      close(fd_);
      throw backend::BackendError("cannot map " + std::to_string(bytes) + " bytes of shared memory");
    }
  }
  ~RunMemory() {
    munmap(base_, bytes_);
    close(fd_);
  }
  RunMemory(const RunMemory&) = delete;
  RunMemory& operator=(const RunMemory&) = delete;
  uint8_t* at(size_t offset) { return static_cast<uint8_t*>(base_) + offset; }
  int fd() const { return fd_; }
  size_t bytes() const { return bytes_; }

 private:
  int fd_ = -1;
  void* base_ = nullptr;
  size_t bytes_;
};

size_t rounded(size_t bytes) { return (bytes + 63) / 64 * 64; }

std::string signalName(int sig) {
  const char* d = strsignal(sig);
  std::string name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGABRT ? "SIGABRT"
                   : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" : sig == SIGKILL ? "SIGKILL"
                   : "signal " + std::to_string(sig);
  return name + (d ? std::string(" (") + d + ")" : "");
}


}  // namespace

WorkerPolicy parseWorkerPolicy(const std::string& text) {
  if (text == "auto") return WorkerPolicy::Auto;
  if (text == "fresh") return WorkerPolicy::Fresh;
  if (text == "reuse") return WorkerPolicy::Reuse;
  throw std::invalid_argument("--workers must be auto, fresh or reuse; not '" + text + "'");
}

std::vector<uint8_t> makeImage(const std::vector<uint8_t>& storage, uint64_t marks) {
  std::vector<uint8_t> image(storage.size() + 2 * kCanaryBytes);
  std::vector<uint8_t> c = canaryPattern(marks);  // the leading canary, then the trailing one
  for (size_t i = 0; i < kCanaryBytes; ++i) {
    image[i] = c[i];
    image[kCanaryBytes + storage.size() + i] = c[kCanaryBytes + i];
  }
  std::memcpy(image.data() + kCanaryBytes, storage.data(), storage.size());
  return image;
}

bool canariesIntact(const std::vector<uint8_t>& image, uint64_t marks) {
  std::vector<uint8_t> c = canaryPattern(marks);
  size_t tail = image.size() - kCanaryBytes;
  return std::memcmp(image.data(), c.data(), kCanaryBytes) == 0 &&
         std::memcmp(image.data() + tail, c.data() + kCanaryBytes, kCanaryBytes) == 0;
}

void settleLaunch(LaunchRecord& rec, bool timedOut, double timeoutSeconds, int status, int phase,
                  const char* resource) {
  if (timedOut) {
    rec.status = LaunchStatus::Timeout;
    rec.message = "no result after " + std::to_string(timeoutSeconds).substr(0, std::to_string(timeoutSeconds).find('.') + 2) +
                  " s; the worker was killed";
  } else if (WIFSIGNALED(status)) {
    rec.status = LaunchStatus::Crash;
    rec.signal = WTERMSIG(status);
    // A call the cell's filter denied: its handler named it (sandbox/cell.h).
    if (!(rec.signal == SIGSYS && rec.message.rfind("sandbox-violation: ", 0) == 0)) rec.message = signalName(rec.signal);
  } else if (phase == -3) {
    rec.status = LaunchStatus::Crash;
  } else if (phase == -1) {
    rec.status = LaunchStatus::Error;
  } else if (phase == -4) {
    rec.status = LaunchStatus::Error;
    rec.loadFailed = true;
  } else if (phase == -2) {
    rec.status = LaunchStatus::Nonzero;
    rec.message = "the kernel returned " + std::to_string(rec.rc);
  } else if (phase == 2) {
    rec.status = LaunchStatus::Ok;
    rec.resource = resource;
  } else {
    rec.status = LaunchStatus::Crash;
    rec.message = "the worker exited (status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                  ") before the kernel finished";
  }
}

Worker::~Worker() {
  stop();
  host_.reset();
}

sandbox::CellSpec workerCell(const backend::Backend& backend, size_t runBytes, const std::string& artefact,
                             const std::string& device) {
  sandbox::CellSpec spec;
  spec.cudaDevices = device;
  // Run-time compiler caches: one folder per kernel, so that what one kernel writes there
  // never reaches another's cells.
  // FNV-1a of the backend and the artefact: the same folder for the same kernel across builds
  // of kcontract (std::hash promises that only within one program).
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(plan::fnv1a64(backend.name() + "\n" + artefact)));
  spec.jitCache = backend::cacheDir() + "/jit/" + key;
  // Backends whose kernels run on the CPU in the worker's own memory (the ptx backend
  // interprets CUDA kernels there): no GPU device nodes, and the host's address-space limit.
  const bool onCpu = backend.name() == backend::kHostBackend || backend.name() == backend::kPtxBackend;
  spec.gpuDevices = !onCpu;
  if (onCpu) spec.limits.addressBytes = std::max<uint64_t>(16ull << 30, 4 * static_cast<uint64_t>(runBytes));
  return spec;
}

// The worker's socket in its process: one number, whether it was forked from a kept cell or
// in a cell of its own.
constexpr int kSocketFd = 3;

void Worker::start(const WorkerRequest& r, size_t runBytes) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    throw backend::BackendError("cannot start a worker process: socketpair: " + std::string(std::strerror(errno)));
  try {
    if (!output_) output_ = std::make_unique<sandbox::OutputCapture>();
  } catch (const std::runtime_error& e) {
    throw backend::BackendError(std::string("cannot capture the kernel's output: ") + e.what());
  }
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  sandbox::CellSpec spec = workerCell(*r.backend, runBytes, r.prepared.artefact, device_);
  spec.fds = {{null, 0}, {output_->writeEnd(), 1}, {output_->writeEnd(), 2}, {pair[1], kSocketFd}};
  try {
    if (!reuse_ && keepCell_ && sandbox::CellHost::usable()) startHosted(r, spec);
    if (!hosted_) {
      cell_ = sandbox::forkCell(spec, [&] {
        disguiseProcess(r.setup->marks);  // the run's marks: its title is not kcontract
        serveRuns(*r.backend, r.prepared, r.entry, kSocketFd, reuse_);
      });
      pid_ = cell_->pid();
      pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
    }
  } catch (const std::exception& e) {
    close(pair[0]);
    close(pair[1]);
    if (null >= 0) close(null);
    throw backend::BackendError("cannot start a worker process: " + std::string(e.what()));
  }
  if (null >= 0) close(null);
  close(pair[1]);
  socket_ = pair[0];
  backend_ = r.backend;
  artefact_ = r.prepared.artefact;
  entry_ = r.entry;
  ++started_;
}

void Worker::keepCellFor(backend::Backend& be, const backend::Prepared& prepared, const std::string& entry) {
  if (reuse_ || !keepCell_ || !sandbox::CellHost::usable()) return;
  if (host_ && host_->alive() && hostBackend_ == &be && hostArtefact_ == prepared.artefact && hostEntry_ == entry) return;
  host_.reset();
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  // pid 1 is a copy of this process as it is now: made before a case's buffers exist, it
  // holds none of them. Every process it forks runs this kernel, with copies of what it needs.
  backend::Backend* backend = &be;
  try {
    if (!output_) output_ = std::make_unique<sandbox::OutputCapture>();
    sandbox::CellSpec spec = workerCell(be, 0, prepared.artefact, device_);
    spec.fds = {{null, 0}, {output_->writeEnd(), 1}, {output_->writeEnd(), 2}};
    host_ = sandbox::CellHost::start(spec, [backend, prepared, entry](uint64_t marks) {
      disguiseProcess(marks);
      serveRuns(*backend, prepared, entry, kSocketFd, false);
    });
  } catch (const std::exception&) {
    host_.reset();  // the same cell, made per run instead (start()): slower, as safe
  }
  if (null >= 0) close(null);
  hostBackend_ = &be;
  hostArtefact_ = prepared.artefact;
  hostEntry_ = entry;
}

void Worker::startHosted(const WorkerRequest& r, const sandbox::CellSpec& spec) {
  keepCellFor(*r.backend, r.prepared, r.entry);
  if (!host_) return;
  pidfd_ = host_->spawn(spec.fds, r.setup->marks, spec.limits);
  hosted_ = pidfd_ >= 0;
  if (!hosted_) host_.reset();  // a cell of its own instead (the caller's fallback)
}

bool Worker::running() const { return pid_ > 0 || hosted_; }

void Worker::killProcess() {
  if (hosted_) syscall(SYS_pidfd_send_signal, pidfd_, SIGKILL, nullptr, 0);
  else if (pid_ > 0) kill(pid_, SIGKILL);
}

// The process's wait status; whatever it started goes with it (the kept cell kills it; a
// cell of its own is its process group).
int Worker::waitProcess() {
  int status = 0;
  if (hosted_) {
    status = host_->wait();
    if (status == -1) status = SIGKILL;  // the cell itself died: as if killed
  } else if (pid_ > 0) {
    waitpid(pid_, &status, 0);
    kill(-pid_, SIGKILL);
  }
  hosted_ = false;
  pid_ = -1;
  cell_.reset();
  return status;
}

void Worker::reap(int& status) {
  if (running()) status = waitProcess();
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  if (pidfd_ >= 0) close(pidfd_);
  pidfd_ = -1;
}

void Worker::stop() {
  if (running()) {
    close(socket_);  // an idle worker reads the end of the socket and exits
    socket_ = -1;
    pollfd p{pidfd_, POLLIN, 0};
    if (pidfd_ < 0 || poll(&p, 1, 2000) == 0) killProcess();  // still busy after 2 s: leftover device work
    waitProcess();
  }
  if (pidfd_ >= 0) close(pidfd_);
  pidfd_ = -1;
  output_.reset();
}

LaunchRecord Worker::run(const WorkerRequest& r) {
  const CaseSetup& s = *r.setup;
  size_t n = s.args.size();
  // The request, then the images: per argument its pristine image, then those that come back.
  wire::Request q;
  q.args = s.args;
  q.repeats = r.repeats;
  q.deviceSync = r.deviceSync;
  q.perturb = r.perturb;
  q.inOffsets.assign(n, 0);
  q.backOffsets.resize(n);
  for (size_t a = 0; a < n; ++a) q.backOffsets[a].assign(s.args[a].output ? static_cast<size_t>(r.repeats) : 1, 0);
  size_t offset = wire::requestOffset() + rounded(sizeof(uint64_t) + wire::encodeRequest(q).size());
  for (size_t a = 0; a < n; ++a) {
    q.inOffsets[a] = offset;
    offset += rounded(s.args[a].imageBytes());
  }
  for (size_t a = 0; a < n; ++a)
    for (uint64_t& back : q.backOffsets[a]) {
      back = offset;
      offset += rounded(s.args[a].imageBytes());
    }
  RunMemory mem(offset, markName(s.marks, MarkName::Mapping));
  auto* report = new (mem.at(0)) wire::Report();
  std::vector<uint8_t> encoded = wire::encodeRequest(q);
  uint64_t encodedBytes = encoded.size();
  std::memcpy(mem.at(wire::requestOffset()), &encodedBytes, sizeof encodedBytes);
  std::memcpy(mem.at(wire::requestOffset() + sizeof encodedBytes), encoded.data(), encoded.size());
  for (size_t a = 0; a < n; ++a) {
    std::vector<uint8_t> image = makeImage(r.storage[a], s.marks);
    std::memcpy(mem.at(q.inOffsets[a]), image.data(), image.size());
  }

  if (running() && (r.backend != backend_ || r.prepared.artefact != artefact_ || r.entry != entry_)) stop();
  auto begin = std::chrono::steady_clock::now();
  if (!running()) start(r, mem.bytes());
  if (output_) output_->take();  // printed between runs: nobody's
  if (!wire::sendRun(socket_, mem.fd(), mem.bytes())) {  // the idle worker is gone: one more
    int status = 0;
    reap(status);
    start(r, mem.bytes());
    if (!wire::sendRun(socket_, mem.fd(), mem.bytes()))
      throw backend::BackendError("cannot hand the run to a worker process: " + std::string(std::strerror(errno)));
  }

  LaunchRecord rec;
  int status = 0;
  bool timedOut = false;
  for (;;) {
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    int waitMs = static_cast<int>(std::max(0.0, r.timeoutSeconds - elapsed) * 1000.0) + 1;
    // The checker holds the pipe's write end too, so it never hangs up: no busy loop.
    pollfd p[3] = {{socket_, POLLIN, 0}, {output_->readEnd(), POLLIN, 0}, {pidfd_, POLLIN, 0}};
    int ready = poll(p, pidfd_ >= 0 ? 3 : 2, waitMs);
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0 && p[1].revents) output_->drain();
    if (ready > 0 && !p[0].revents && p[2].revents) {  // the worker died; a child of it still holds the socket
      reap(status);
      break;
    }
    if (ready > 0 && !p[0].revents) continue;
    if (ready > 0) {
      char answer = 0;
      ssize_t got = read(socket_, &answer, 1);
      if (got < 0 && errno == EINTR) continue;
      if (got != 1 || answer != 'k') reap(status);  // it died, or exits after this run
      break;
    }
    // Past the limit. A worker still waiting for leftover device work after writing every
    // result has finished the run; any other is timed out.
    timedOut = !report->settled;
    killProcess();
    reap(status);
    status = 0;  // timed out (settleLaunch says so), or finished: not a crash
    break;
  }
  rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (output_) rec.output = output_->take();
  rec.launches = report->launches;
  rec.rc = report->rc;
  rec.message = report->message;
  rec.perturbation = report->perturbation;
  settleLaunch(rec, timedOut, r.timeoutSeconds, status, report->phase, report->resource);
  // Bring back what the worker wrote.
  rec.images.resize(n);
  for (size_t a = 0; a < n; ++a) {
    size_t bytes = s.args[a].imageBytes();
    int copies = s.args[a].output ? std::min(rec.launches, r.repeats) : (rec.launches > 0 ? 1 : 0);
    for (int k = 0; k < copies; ++k) {
      const uint8_t* p = mem.at(q.backOffsets[a][static_cast<size_t>(k)]);
      rec.images[a].emplace_back(p, p + bytes);
    }
  }
  return rec;
}

LaunchRecord runInWorker(const WorkerRequest& r) {
  if (r.worker) return r.worker->run(r);
  Worker fresh(false, false, r.device);  // one run: a cell of its own costs less than a kept one
  return fresh.run(r);
}

}  // namespace kc::run
