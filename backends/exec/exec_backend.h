#pragma once
// The exec backend (docs/backends.md, "The exec backend and its protocol"): the kernel runs
// in another process, any runtime, through an adaptor program named by an exec spec
// (NAME.kcexec, exec_spec.h). Buffers are host memory, so the checker judges the outputs
// exactly as on the in-process backends. Two protocols:
//
// kcontract-exec/1: for each launch the worker writes the inputs as .npy files and a request
// manifest (request.json) into a private folder, runs the command — no shell, argv exactly
// as written, the request's path appended, the spec's folder as the working directory — and
// reads the outputs back from the .npy files its response manifest (response.json) names.
// A nonzero exit is an ERROR with the tail of the adaptor's stderr; death on a signal is a
// CRASH; the worker's time limit covers the adaptor too (it dies with the worker).
//
// kcontract-exec/2: the worker starts the adaptor once, in load(), and keeps it (and itself:
// reusesWorker()) across launches and cases while they end cleanly. Requests and replies
// are length-prefixed JSON over a socketpair (exec_wire.h); buffers are memfds mapped
// MAP_SHARED, their descriptors passed once each, so the adaptor reads and writes the very
// bytes the checker poisons and inspects (exec_v2.cpp). A v2 spec with "device_memory" also
// lets cases too large for host memory run on the streamed path: their buffers live in the
// adaptor's device memory, and the worker drives them with requests (exec_device.cpp).
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backends/exec/adaptor_process.h"
#include "backends/exec/exec_spec.h"
#include "backends/exec/exec_wire.h"
#include "backends/host_memory.h"

namespace kc::backend {

class ExecBackend : public HostMemoryBackend {
 public:
  ~ExecBackend() override;
  std::string name() const override { return kExecBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  // v2: the kernel runs in the adaptor's process, so it cannot corrupt the worker's memory;
  // any failed run still ends the worker, and the adaptor with it.
  bool reusesWorker() const override { return spec_.protocol == 2; }
  void beginCase() override;
  void describeArgs(const std::vector<ArgDesc>& args) override { args_ = args; }
  void* allocate(size_t bytes) override;
  void release(void* buffer) override;
  int launch(kc_tensor* args, int32_t nargs) override;
  std::string fault() override { return pendingFault_; }
  std::string resourceReport() override { return resource_; }
  std::string setPerturbation(const std::string& kind) override;
  // Device memory (exec_device.cpp): only where the spec says "device_memory".
  bool separateMemory() const override { return spec_.deviceMemory; }
  void useDeviceMemory() override;
  void setDeviceWait(bool on) override { deviceWait_ = on; }  // v2: the launch request says "wait": "device"
  bool hasStreams() const override { return spec_.protocol == 2; }  // the adaptor's device may have them
  void copyIn(void* device, const void* host, size_t bytes) override;
  void copyOut(void* host, const void* device, size_t bytes) override;
  void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) override;
  void fillGenerated(void* device, const GeneratedFill& g, size_t count) override;
  PatternCount countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                            size_t maxFirst) override;
  void copyDevice(void* to, const void* from, size_t bytes) override;
  uint64_t compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) override;

 private:
  std::string runFolder();  // one private folder per run (mkdtemp), removed by the checker
  // v1, the steps of one launch in the case's folder `caseDir`:
  std::string writeRequest(kc_tensor* args, int32_t nargs, const std::string& caseDir);  // the request's path
  bool runAdaptor(const std::string& requestPath, const std::string& caseDir);  // false: it died (fault())
  int readResponse(kc_tensor* args, int32_t nargs, const std::string& caseDir);  // the kernel's return code
  // v2 (exec_v2.cpp):
  void startAdaptor();                                 // in load(): start it and check its hello
  int launchV2(kc_tensor* args, int32_t nargs);
  // One reply to request `id`, validated (type among `types`); a closed socket or a death
  // sets pendingFault_ and returns a null json.
  struct Reply {
    nlohmann::json body;  // null: the adaptor is gone (pendingFault_ says how)
  };
  Reply exchange(const std::string& request, const std::vector<int>& fds, uint64_t id);
  // Device memory (exec_device.cpp): one request answered "ok" (its body), or a
  // BackendError; a device fault in the adaptor goes to pendingFault_ and returns null.
  nlohmann::json deviceRequest(nlohmann::json request, const std::vector<int>& fds = {});
  nlohmann::json where(const void* device, size_t bytes) const;  // {"buffer", "offset"} of a device address
  void stage();  // the shared staging buffer of the copies (64 MiB, allocated once)
  nlohmann::json stagedRequest(nlohmann::json request);  // a write or read through it
  void buildSupport();  // in prepare(): the CUDA support kernels for the adaptor, when there is a GPU

  ExecSpec spec_;
  std::string entry_;
  std::vector<ArgDesc> args_;
  int launches_ = 0;
  std::string root_;    // the run's folder; created by prepare() in the checker process
  int rootOwner_ = 0;   // the pid that created it and removes it
  std::string pendingFault_;
  // v2 state, in the worker:
  std::unique_ptr<AdaptorProcess> adaptor_;
  struct Buffer {
    execwire::SharedBuffer mem;
    uint64_t id = 0;
    bool sent = false;  // its descriptor went to the adaptor
  };
  std::map<uintptr_t, Buffer> buffers_;  // by address
  std::vector<uint64_t> released_;       // ids the adaptor may unmap (sent with the next request)
  uint64_t nextBuffer_ = 1, nextRequest_ = 1;
  int cases_ = -1;                       // runs begun in this worker
  std::string resource_;                 // the last launch's resource line
  bool deviceWait_ = false;
  // Device memory, in the streamed worker (useDeviceMemory()):
  bool onDevice_ = false;
  bool generates_ = false;               // the adaptor runs the CUDA support kernels' fill
  std::string supportLibrary_;           // built by prepare() in the checker ("" when none)
  std::string supportError_;             // why not
  std::map<uintptr_t, std::pair<uint64_t, size_t>> deviceBuffers_;  // address -> (id, bytes)
  Buffer staging_;                       // shared host memory the copies go through
};

}  // namespace kc::backend
