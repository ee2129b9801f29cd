#include "checker/run/worker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace kc::run {

namespace {

constexpr size_t kMessageBytes = 4096;
constexpr size_t kOutputBytes = 8192;

// The worker's report, in shared memory.
struct Shared {
  int phase = 0;  // 0 started, 1 loaded, 2 done, -1 backend error, -2 nonzero rc, -3 device fault
  int rc = 0;
  int launches = 0;
  char message[kMessageBytes] = {};
  char resource[kMessageBytes] = {};  // the backend's resourceReport() after the last launch
  char perturbation[kMessageBytes] = {};  // the backend's setPerturbation() line
};

void setMessage(Shared* s, const std::string& m) {
  std::strncpy(s->message, m.c_str(), kMessageBytes - 1);
}

// One mapping for everything the worker writes or reads, shared across the fork.
class SharedMemory {
 public:
  explicit SharedMemory(size_t bytes) : bytes_(bytes) {
    base_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base_ == MAP_FAILED) throw backend::BackendError("cannot map " + std::to_string(bytes) + " bytes of shared memory");
  }
  ~SharedMemory() { munmap(base_, bytes_); }
  uint8_t* at(size_t offset) { return static_cast<uint8_t*>(base_) + offset; }

 private:
  void* base_;
  size_t bytes_;
};

std::string signalName(int sig) {
  const char* d = strsignal(sig);
  std::string name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGABRT ? "SIGABRT"
                   : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL" : sig == SIGKILL ? "SIGKILL"
                   : "signal " + std::to_string(sig);
  return name + (d ? std::string(" (") + d + ")" : "");
}

// The body of the worker. Never returns.
[[noreturn]] void workerMain(const WorkerRequest& r, Shared* shared, const std::vector<size_t>& inOffsets,
                             const std::vector<std::vector<size_t>>& outOffsets, SharedMemory& mem) {
  const CaseSetup& s = *r.setup;
  backend::Backend& be = *r.backend;
  try {
    be.load(r.prepared, r.entry);
    shared->phase = 1;
    size_t n = s.args.size();
    std::vector<backend::ArgDesc> descs;
    for (const ArgSpec& spec : s.args) descs.push_back({spec.name, spec.output});
    be.describeArgs(descs);
    if (r.perturb != "none") {
      std::string note = be.setPerturbation(r.perturb);
      std::strncpy(shared->perturbation, note.c_str(), kMessageBytes - 1);
    }
    std::vector<void*> device(n, nullptr), views(n, nullptr);
    std::vector<std::vector<uint8_t>> scalars(n);
    for (size_t a = 0; a < n; ++a) {
      device[a] = be.allocate(s.args[a].imageBytes());
      // The view's first element, past the leading canary and the view's offset.
      if (!s.args[a].scalar)
        views[a] = be.view(device[a], kCanaryBytes + static_cast<size_t>(s.args[a].offset) * s.args[a].elementBytes());
    }
    for (int launch = 0; launch < r.repeats; ++launch) {
      std::vector<kc_tensor> args(n);
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = s.args[a];
        const uint8_t* image = mem.at(inOffsets[a]);  // pristine input / output template
        be.copyIn(device[a], image, spec.imageBytes());
        void* data = views[a];
        if (spec.scalar) {  // rank 0: always a host pointer (DESIGN.md §5)
          scalars[a].assign(image + kCanaryBytes, image + kCanaryBytes + spec.storageBytes());
          data = scalars[a].data();
        }
        args[a] = kc_tensor{data, static_cast<int32_t>(spec.dtype), static_cast<int32_t>(spec.shape.size()),
                            spec.shape.data(), spec.strides.data()};
      }
      int rc = be.launch(args.data(), static_cast<int32_t>(n));
      if (r.deviceSync)
        be.synchronizeDevice();
      else
        be.synchronize();
      std::string fault = be.fault();
      if (!fault.empty()) {
        setMessage(shared, fault);
        shared->phase = -3;
        _exit(0);
      }
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = s.args[a];
        if (spec.output) {
          be.copyOut(mem.at(outOffsets[a][static_cast<size_t>(launch)]), device[a], spec.imageBytes());
        } else if (launch == 0) {
          uint8_t* after = mem.at(outOffsets[a][0]);
          if (spec.scalar) {  // the kernel could only write the host copy
            std::memcpy(after, mem.at(inOffsets[a]), spec.imageBytes());
            std::memcpy(after + kCanaryBytes, scalars[a].data(), spec.storageBytes());
          } else {
            be.copyOut(after, device[a], spec.imageBytes());
          }
        }
      }
      shared->launches = launch + 1;
      if (rc != 0) {
        shared->rc = rc;
        shared->phase = -2;
        _exit(0);
      }
    }
    // A device fault that surfaced only while the last outputs came back.
    if (std::string fault = be.fault(); !fault.empty()) {
      setMessage(shared, fault);
      shared->phase = -3;
      _exit(0);
    }
    std::string resource = be.resourceReport();
    std::strncpy(shared->resource, resource.c_str(), kMessageBytes - 1);
    shared->phase = 2;
  } catch (const std::exception& e) {
    setMessage(shared, e.what());
    shared->phase = -1;
  }
  _exit(0);
}

std::string readTail(int fd) {
  std::string out;
  lseek(fd, 0, SEEK_SET);
  char buf[4096];
  ssize_t got;
  while ((got = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(got));
  if (out.size() > kOutputBytes) out = "..." + out.substr(out.size() - kOutputBytes);
  return out;
}

}  // namespace

std::vector<uint8_t> makeImage(const std::vector<uint8_t>& storage) {
  std::vector<uint8_t> image(storage.size() + 2 * kCanaryBytes);
  std::vector<uint8_t> c = canaryPattern();
  for (size_t i = 0; i < kCanaryBytes; ++i) {
    image[i] = c[i % c.size()];
    image[kCanaryBytes + storage.size() + i] = c[i % c.size()];
  }
  std::memcpy(image.data() + kCanaryBytes, storage.data(), storage.size());
  return image;
}

bool canariesIntact(const std::vector<uint8_t>& image) {
  std::vector<uint8_t> c = canaryPattern();
  size_t tail = image.size() - kCanaryBytes;
  for (size_t i = 0; i < kCanaryBytes; ++i)
    if (image[i] != c[i % c.size()] || image[tail + i] != c[i % c.size()]) return false;
  return true;
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
    rec.message = signalName(rec.signal);
  } else if (phase == -3) {
    rec.status = LaunchStatus::Crash;
  } else if (phase == -1) {
    rec.status = LaunchStatus::Error;
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

LaunchRecord runInWorker(const WorkerRequest& r) {
  const CaseSetup& s = *r.setup;
  size_t n = s.args.size();
  // Layout of the shared mapping: the report, then per argument its pristine image, then
  // the images that come back (outputs: one per launch; inputs: one).
  size_t offset = (sizeof(Shared) + 4095) / 4096 * 4096;
  std::vector<size_t> inOffsets(n);
  std::vector<std::vector<size_t>> backOffsets(n);
  for (size_t a = 0; a < n; ++a) {
    inOffsets[a] = offset;
    offset += (s.args[a].imageBytes() + 63) / 64 * 64;
  }
  for (size_t a = 0; a < n; ++a) {
    int copies = s.args[a].output ? r.repeats : 1;
    for (int k = 0; k < copies; ++k) {
      backOffsets[a].push_back(offset);
      offset += (s.args[a].imageBytes() + 63) / 64 * 64;
    }
  }
  SharedMemory mem(offset);
  auto* shared = new (mem.at(0)) Shared();
  for (size_t a = 0; a < n; ++a) {
    std::vector<uint8_t> image = makeImage(r.storage[a]);
    std::memcpy(mem.at(inOffsets[a]), image.data(), image.size());
  }

  char outPath[] = "/tmp/kc-worker-XXXXXX";
  int outFd = mkstemp(outPath);
  if (outFd >= 0) unlink(outPath);

  auto start = std::chrono::steady_clock::now();
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw backend::BackendError("cannot start a worker process: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    if (outFd >= 0) {
      dup2(outFd, 1);
      dup2(outFd, 2);
    }
    workerMain(r, shared, inOffsets, backOffsets, mem);
  }

  LaunchRecord rec;
  int status = 0;
  bool timedOut = false;
  for (int sleepUs = 50;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > r.timeoutSeconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(sleepUs));
    sleepUs = std::min(sleepUs * 2, 20000);
  }
  rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outFd >= 0) {
    rec.output = readTail(outFd);
    close(outFd);
  }
  rec.launches = shared->launches;
  rec.rc = shared->rc;
  rec.message = shared->message;
  rec.perturbation = shared->perturbation;
  settleLaunch(rec, timedOut, r.timeoutSeconds, status, shared->phase, shared->resource);
  // Bring back what the worker wrote.
  rec.images.resize(n);
  for (size_t a = 0; a < n; ++a) {
    size_t bytes = s.args[a].imageBytes();
    int copies = s.args[a].output ? std::min(rec.launches, r.repeats) : (rec.launches > 0 ? 1 : 0);
    for (int k = 0; k < copies; ++k) {
      const uint8_t* p = mem.at(backOffsets[a][static_cast<size_t>(k)]);
      rec.images[a].emplace_back(p, p + bytes);
    }
  }
  return rec;
}

}  // namespace kc::run
