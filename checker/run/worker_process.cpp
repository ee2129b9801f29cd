// The worker process's side of checker/run/worker.h: receive a run, launch the kernel through
// the backend, write every result into the run's shared mapping, answer, and wait for the next.
#include "checker/run/worker_process.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "checker/run/worker_wire.h"
#include "sandbox/cell.h"

namespace kc::run {

namespace {

void setText(char* field, const std::string& text) { std::strncpy(field, text.c_str(), wire::kMessageBytes - 1); }

// One run: load the kernel if this worker has not yet, launch it `repeats` times and bring the
// images back. Returns whether the worker may run another case (it ended cleanly and nothing
// of it can reach the next run).
bool runOnce(backend::Backend& be, const backend::Prepared& prepared, const std::string& entry, bool& loaded,
             bool reuse, uint8_t* base, size_t size) {
  auto* report = reinterpret_cast<wire::Report*>(base);
  sandbox::setViolationSink(report->message, wire::kMessageBytes);  // a denied call names itself here
  std::vector<void*> device;
  try {
    size_t at = wire::requestOffset();
    if (size < at + sizeof(uint64_t)) throw std::runtime_error("the worker's mapping is too small");
    uint64_t requestBytes = 0;
    std::memcpy(&requestBytes, base + at, sizeof requestBytes);
    if (requestBytes > size - at - sizeof requestBytes) throw std::runtime_error("the worker's request is truncated");
    wire::Request r = wire::decodeRequest(base + at + sizeof requestBytes, requestBytes);
    if (!loaded) {
      try {
        be.load(prepared, entry);
      } catch (const std::exception& e) {  // the kernel itself cannot be loaded: no case can run
        setText(report->message, e.what());
        report->phase = -4;
        return false;
      }
      loaded = true;
    }
    report->phase = 1;
    be.beginCase();
    size_t n = r.args.size();
    std::vector<backend::ArgDesc> descs;
    for (const ArgSpec& spec : r.args) descs.push_back({spec.name, spec.output});
    be.describeArgs(descs);
    if (r.perturb != backend::perturb::kNone || reuse) setText(report->perturbation, be.setPerturbation(r.perturb));
    device.assign(n, nullptr);
    std::vector<void*> views(n, nullptr);
    std::vector<std::vector<uint8_t>> scalars(n);
    for (size_t a = 0; a < n; ++a) {
      device[a] = be.allocate(r.args[a].imageBytes());
      // The view's first element, past the leading canary and the view's offset.
      if (!r.args[a].scalar)
        views[a] = be.view(device[a], kCanaryBytes + static_cast<size_t>(r.args[a].offset) * r.args[a].elementBytes());
    }
    be.setDeviceWait(r.deviceSync);
    for (int launch = 0; launch < r.repeats; ++launch) {
      std::vector<kc_tensor> args(n);
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = r.args[a];
        const uint8_t* image = base + r.inOffsets[a];  // pristine input / output template
        be.copyIn(device[a], image, spec.imageBytes());
        void* data = views[a];
        if (spec.scalar) {  // rank 0: always a host pointer (docs/design.md §5)
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
        setText(report->message, fault);
        report->phase = -3;
        return false;
      }
      for (size_t a = 0; a < n; ++a) {
        const ArgSpec& spec = r.args[a];
        if (spec.output) {
          be.copyOut(base + r.backOffsets[a][static_cast<size_t>(launch)], device[a], spec.imageBytes());
        } else if (launch == 0) {
          uint8_t* after = base + r.backOffsets[a][0];
          if (spec.scalar) {  // the kernel could only write the host copy
            std::memcpy(after, base + r.inOffsets[a], spec.imageBytes());
            std::memcpy(after + kCanaryBytes, scalars[a].data(), spec.storageBytes());
          } else {
            be.copyOut(after, device[a], spec.imageBytes());
          }
        }
      }
      report->launches = launch + 1;
      if (rc != 0) {
        report->rc = rc;
        report->phase = -2;
        return false;
      }
    }
    // A device fault that surfaced only while the last outputs came back.
    if (std::string fault = be.fault(); !fault.empty()) {
      setText(report->message, fault);
      report->phase = -3;
      return false;
    }
    setText(report->resource, be.resourceReport());
    report->phase = 2;
  } catch (const std::exception& e) {
    setText(report->message, e.what());
    report->phase = -1;
    return false;
  }
  if (!reuse) return false;
  // Every result is written. Before the buffers go back, wait for all work on the device, a
  // private stream's included, so nothing of this run writes into the next one's buffers.
  report->settled = 1;
  be.synchronizeDevice();
  if (!be.fault().empty()) return false;
  for (void* d : device) be.release(d);
  return true;
}

}  // namespace

[[noreturn]] void serveRuns(backend::Backend& be, const backend::Prepared& prepared, const std::string& entry,
                            int socket, bool reuse) {
  bool loaded = false;
  for (;;) {
    int memfd = -1;
    uint64_t bytes = 0;
    if (!wire::receiveRun(socket, memfd, bytes)) _exit(0);  // the checker is done with this worker
    void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    close(memfd);
    bool again = false;
    if (base != MAP_FAILED) {
      again = runOnce(be, prepared, entry, loaded, reuse, static_cast<uint8_t*>(base), bytes);
      sandbox::setViolationSink(nullptr, 0);
      munmap(base, bytes);
    }
    std::fflush(nullptr);  // what the kernel printed belongs to this run
    char answer = again ? 'k' : 'x';
    if (write(socket, &answer, 1) != 1 || !again) _exit(0);
  }
}

}  // namespace kc::run
