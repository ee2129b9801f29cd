#pragma once
// The exec backend (docs/backends.md, "The exec backend and its protocol"): the kernel runs
// in another process, any runtime, through an adaptor program. The kernel reference is an
// exec spec, a JSON file NAME.kcexec:
//
//   {"command": ["python3", "../adaptors/pytorch/kc_torch.py", "my_kernels:softmax"],
//    "env": {"KC_TORCH_DEVICE": "cpu"}}
//
// For each launch the worker writes the inputs as .npy files and a request manifest
// (request.json) into a private folder, runs the command — no shell, argv exactly as
// written, the request's path appended, the spec's folder as the working directory — and
// reads the outputs back from the .npy files its response manifest (response.json) names.
// Buffers are host memory, so the checker judges the outputs exactly as on the in-process
// backends. A nonzero exit is an ERROR with the tail of the adaptor's stderr; death on a
// signal is a CRASH; the worker's time limit covers the adaptor too (it dies with the worker).
#include <string>
#include <vector>

#include "backends/host_memory.h"

namespace kc::backend {

// A parsed .kcexec file.
struct ExecSpec {
  std::vector<std::string> command;                      // argv; argv[0] found on PATH when it has no '/'
  std::vector<std::pair<std::string, std::string>> env;  // added to the environment
  std::string dir;                                       // the spec's folder: the working directory
};

// Throws BackendError with the file and what is wrong.
ExecSpec readExecSpec(const std::string& path);

class ExecBackend : public HostMemoryBackend {
 public:
  ~ExecBackend() override;
  std::string name() const override { return kExecBackend; }
  Availability probe() override;
  Prepared prepare(const KernelRef& kernel) override;
  void load(const Prepared& prepared, const std::string& entry) override;
  void beginCase() override { launches_ = 0; }
  void describeArgs(const std::vector<ArgDesc>& args) override { args_ = args; }
  int launch(kc_tensor* args, int32_t nargs) override;
  std::string fault() override { return pendingFault_; }

 private:
  std::string runFolder();  // one private folder per run (mkdtemp), removed by the checker
  // The steps of one launch in the case's folder `caseDir`:
  std::string writeRequest(kc_tensor* args, int32_t nargs, const std::string& caseDir);  // the request's path
  bool runAdaptor(const std::string& requestPath, const std::string& caseDir);  // false: it died (fault())
  int readResponse(kc_tensor* args, int32_t nargs, const std::string& caseDir);  // the kernel's return code

  ExecSpec spec_;
  std::string entry_;
  std::vector<ArgDesc> args_;
  int launches_ = 0;
  std::string root_;    // the run's folder; created by prepare() in the checker process
  int rootOwner_ = 0;   // the pid that created it and removes it
  std::string pendingFault_;
};

}  // namespace kc::backend
