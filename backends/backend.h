#pragma once
// The one interface every execution backend implements (host, CUDA, OpenCL, exec, ptx). The
// checker drives a backend only through it, inside a worker process (checker/run/worker.h),
// so a kernel that crashes or hangs takes only the worker down.
//
// Life of a case on a backend: prepare() once per kernel in the checker process (compile,
// cached), then in the worker: load() once -> per run: beginCase() -> allocate() buffers ->
// fill()/copyIn() -> launch() -> synchronize() -> fault() -> copyOut() ... -> the worker exits,
// or (reusesWorker()) synchronizeDevice() -> release() and the next run.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend_names.h"
#include "backends/perturbations.h"
#include "kcontract/abi.h"
#include "stdlib/numerics/dtype.h"
#include "stdlib/values/fill.h"

namespace kc::backend {

// A backend that cannot build or run something: the message is the user's to read (the
// compiler's output, the runtime's error string). Cases it concerns get the ERROR verdict.
struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One kernel argument as the worker describes it to the backend (ABI order): its name in
// the contract and whether it is an output. Only the exec backend needs it (the names go
// into its request manifest); in-process backends ignore it.
struct ArgDesc {
  std::string name;
  bool output = false;
};

// Whether this machine can run the backend at all; when not, every case is SKIPPED with `reason`.
struct Availability {
  bool available = false;
  std::string reason;   // why not (no GPU, no OpenCL platform, not built in)
  std::string device;   // what runs the kernels, for reports: "host (x86_64, 2 threads)"
  int devices = 0;      // the GPUs it sees (check --devices); 0 on backends without any
  std::string arch;     // the CUDA backend's device architecture ("sm_90"; "" elsewhere)
};

// Contiguous elements whose value is a pure function of (key, flat index): element i of the
// range is values::cellValue(spec, dtype, key, firstIndex + i), stored in the dtype's bytes.
// The streamed case path (checker/run/big_case.h) fills inputs with it on the device.
struct GeneratedFill {
  values::FillSpec spec;
  numerics::DType dtype = numerics::DType::F32;
  values::PhiloxKey key{};
  uint64_t firstIndex = 0;
};

// Where the elements equal to a pattern are (Backend::countPattern).
struct PatternCount {
  uint64_t count = 0;
  std::vector<uint64_t> first;  // the lowest element indices holding it, ascending
};

// The kernel under test: a source file or a prebuilt shared library, and its entry point.
struct KernelRef {
  std::string path;   // .c/.cpp (host), .cu (CUDA), .cl (OpenCL), .so (any)
  std::string entry;  // kc_<kernel name> unless given
  // Exec kernels only: contract inputs given to the module's attributes instead of as
  // arguments (input -> dotted attribute path; a suite's `bind:`, check --bind).
  std::vector<std::pair<std::string, std::string>> bind;
};

// What prepare() produced: the artefact load() opens (a cached .so for compiled backends).
struct Prepared {
  std::string artefact;
  bool cached = false;  // found in the cache, not built now
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  virtual Availability probe() = 0;

  // In the checker process, once per kernel: compile or validate. Throws BackendError.
  virtual Prepared prepare(const KernelRef& kernel) = 0;

  // --- in the worker process ---------------------------------------------------------------
  // Opens the artefact and finds the entry point. Throws BackendError.
  virtual void load(const Prepared& prepared, const std::string& entry) = 0;
  // Whether one worker process should run case after case while they end cleanly: worth it
  // when load() is costly (a CUDA context). Not for backends whose kernels run in the
  // worker's own memory: a kernel writing past its buffers could corrupt the next run.
  virtual bool reusesWorker() const { return false; }
  // Before each run in the worker: forget what the last run counted (launch numbers,
  // memory readings), so a reused worker reports each run as a fresh one would.
  virtual void beginCase() {}
  // Device memory (host memory on the host backend). Throws BackendError when it fails.
  virtual void* allocate(size_t bytes) = 0;
  virtual void release(void* buffer) = 0;
  // The `data` the kernel gets for a view starting `byteOffset` bytes into `buffer` (from
  // allocate()). Called once per buffer, right after allocate() and before any copy. Buffers
  // that are addresses (host, CUDA) add the offset; the OpenCL backend returns a sub-buffer
  // (a cl_mem whose origin is the view's first element).
  virtual void* view(void* buffer, size_t byteOffset) { return static_cast<uint8_t*>(buffer) + byteOffset; }
  // The kernel's arguments, once per worker after load() (the exec backend names them).
  virtual void describeArgs(const std::vector<ArgDesc>& args) { (void)args; }
  virtual void copyIn(void* device, const void* host, size_t bytes) = 0;
  virtual void copyOut(void* host, const void* device, size_t bytes) = 0;
  // Writes `pattern` repeated over `bytes` bytes (bytes a multiple of the pattern's size).
  virtual void fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) = 0;
  // Calls the entry with the kernel's stream; returns the kernel's own return code.
  virtual int launch(kc_tensor* args, int32_t nargs) = 0;
  // Waits for the kernel's stream only (never the whole device): work a kernel leaves on a
  // private stream is not waited for, which is how that bug shows up.
  virtual void synchronize() = 0;
  // Waits for all work on the device, as a plain harness does (torch.cuda.synchronize()).
  // Only calibration's allclose harness uses it (checker/run/judge.h, Allclose), to show what
  // a kernel that ignores its stream gets away with there.
  virtual void synchronizeDevice() { synchronize(); }
  // Before the launches of a run whose results are read after synchronizeDevice() instead of
  // synchronize() (calibration's allclose harness, the diagnosis's private-stream re-run). A
  // backend that reads the outputs inside its launch (the exec backend's adaptor does, before
  // its reply) must wait for the whole device there.
  virtual void setDeviceWait(bool on) { (void)on; }
  // Whether a kernel can queue work that synchronize() does not wait for and
  // synchronizeDevice() does (CUDA streams, the ptx engine's, an exec adaptor's device): the
  // diagnosis's stream-race re-run is worth its runs only there.
  virtual bool hasStreams() const { return false; }
  // A sticky device fault after a launch ("" when none): an illegal address, a launch failure.
  virtual std::string fault() = 0;
  // After the last launch: a resource the kernel kept across launches, one line each ("" when
  // none; the CUDA backend reports device memory that is never freed). The case FAILs with
  // the built-in signature device-memory-leak, or stream-leak for a line "streams: ..."
  // (the exec backend passes on its adaptor's lines).
  virtual std::string resourceReport() { return ""; }

  // Whether buffers are byte addresses (a buffer plus n bytes is an address the copies and
  // the checks below accept): host and CUDA yes; OpenCL's cl_mem handles no. The streamed
  // case path needs it.
  virtual bool byteAddressed() const { return true; }
  // Whether buffers live in memory of their own (a GPU's), not in the host's: a case too
  // large for host memory then runs on the streamed path instead of being SKIPPED.
  virtual bool separateMemory() const { return false; }
  // Whether the kernel runs in an interpreter (ptx) whose streamed-path buffers are made
  // real only where touched: such a case costs what the kernel does, not its tensors' size,
  // so it gets no extra time per GiB, and one the interpreter does not finish within
  // --timeout is SKIPPED (too slow to interpret), not TIMEOUT (docs/ptx.md, "Large cases").
  virtual bool interprets() const { return false; }
  // In the streamed case path's worker, after load() and before any allocate(): the buffers
  // of this run go in the device's memory even where the backend's normal buffers are host
  // memory (the exec backend's adaptor then holds them; docs/backends.md, "Device memory").
  // Backends whose buffers are device memory anyway ignore it.
  virtual void useDeviceMemory() {}
  // For a backend with memory of its own: how many bytes of it a case may use (the device's
  // free memory when the probe asked, cudaMemGetInfo; OpenCL's CL_DEVICE_GLOBAL_MEM_SIZE), so
  // that a case larger than that is SKIPPED with the estimate and the limit instead of failing
  // to allocate. After probe(), in the checker process; nullopt when unknown or not separate.
  virtual std::optional<uint64_t> deviceMemoryBytes() { return std::nullopt; }

  // --- device-side checks for cases too large to copy back (checker/run/big_case.h) ------
  // The defaults stream chunks through copyIn/copyOut (backends/streamed_ops.cpp), so every
  // backend has them; the CUDA backend runs them as device kernels.
  // Writes `count` generated elements at `device`.
  virtual void fillGenerated(void* device, const GeneratedFill& g, size_t count);
  // Of `count` elements of `elementBytes` bytes at `device`: how many equal `pattern`
  // (elementBytes bytes), and the lowest `maxFirst` of their indices.
  virtual PatternCount countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                                    size_t maxFirst);
  // Copies `bytes` bytes between two device buffers.
  virtual void copyDevice(void* to, const void* from, size_t bytes);
  // How many of `count` elements of `elementBytes` bytes differ bitwise between a and b.
  virtual uint64_t compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes);
  // --- perturbation (docs/checking.md, "Perturbation") --------------------------------------
  // What else runs while the kernel's repeats do, so results that depend on the schedule
  // (atomicAdd orders, missing barriers) show up: `kind` is a case's perturbation (none,
  // noise, launch_order, occupancy; compiler/sema/protocol.cpp). In the checker process,
  // once per job before its cases run: build what the perturbation needs (the CUDA
  // backend's noise kernel). Never throws: a failure is remembered, and setPerturbation()
  // reports it on every perturbed case.
  virtual void preparePerturbation() {}
  // In the worker, after load() and before the first launch: perturb every later launch()
  // this way. Returns one line for the report: what runs ("noise: ...") or, when this
  // backend cannot perturb so, why not ("not supported: ..."): never silently nothing.
  virtual std::string setPerturbation(const std::string& kind) {
    return kind == perturb::kNone ? "" : "not supported: the " + name() + " backend does not perturb; the repeats ran unperturbed";
  }
};

// The backend of that name (backend_names.h: host, cuda, opencl, exec, ptx). A backend not built
// into this kcontract is returned anyway; its probe() says it is unavailable and why.
std::unique_ptr<Backend> makeBackend(const std::string& name);
std::vector<std::string> backendNames();  // kBackendNames

}  // namespace kc::backend
