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
// bytes the checker poisons and inspects (exec_v2.cpp).
#include <cstdint>
#include <map>
#include <memory>
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
  struct Reply;
  Reply exchange(const std::string& request, const std::vector<int>& fds, uint64_t id);

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
};

}  // namespace kc::backend
