#include "backends/ptx/ptx_backend.h"

#include "backends/toolchain.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "backends/host/compile_cache.h"
#include "backends/ptx/ptx_fatbin.h"
#include "backends/ptx/ptx_parser.h"
#include "backends/ptx/runtime/kc_ptx_hooks.h"
#include "backends/toolchain.h"
#include "stdlib/data_root.h"

namespace kc::backend {

namespace fs = std::filesystem;

namespace {

constexpr int kErrInvalidConfiguration = 9;  // cudaErrorInvalidConfiguration
constexpr int kErrInvalidResourceHandle = 400;
constexpr int kErrIllegalAddress = 700;
constexpr size_t kMiB = size_t{1} << 20;

bool nvccRuns(const std::string& nvcc) {
  if (nvcc.find('/') != std::string::npos) return access(nvcc.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + nvcc;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string runtimeDir() { return (fs::path(stdlib::dataDir()) / "backends" / "ptx" / "runtime").string(); }

// The C trampolines the shim calls (kc_ptx_hooks.h).
PtxBackend* self(void* ctx) { return static_cast<PtxBackend*>(ctx); }
int hookLaunch(void* ctx, const char* k, const unsigned g[3], const unsigned b[3], size_t s, void** a, void* st) {
  return self(ctx)->launchKernel(k, g, b, s, a, st);
}
void hookAllocated(void* ctx, void* p, size_t bytes) { self(ctx)->allocated(p, bytes); }
void hookFreed(void* ctx, void* p) { self(ctx)->freed(p); }
int hookSynchronize(void* ctx, void* stream, int all) { return self(ctx)->runQueued(stream, all != 0); }
int hookSticky(void* ctx) { return self(ctx)->stickyError(); }
void hookCopy(void* ctx, void* to, const void* from, size_t bytes) { self(ctx)->copyBytes(to, from, bytes); }
void hookSet(void* ctx, void* p, int value, size_t bytes) { self(ctx)->setBytes(p, value, bytes); }

}  // namespace

PtxBackend::PtxBackend() = default;
PtxBackend::~PtxBackend() = default;

Availability PtxBackend::probe() {
  Availability a;
  std::string nvcc = nvccPath();
  a.available = nvccRuns(nvcc);
  if (!a.available) a.reason = "the ptx backend needs nvcc to build a kernel's PTX and host code ('" + nvcc + "' not found)";
  a.device = std::string("PTX interpreter on the CPU (") + kPtxArch + " PTX, lockstep CTAs, nvcc " + nvcc + ")";
  return a;
}

// Two builds, both cached: the runtime shim as a library of its own (once for every kernel),
// and the kernel's host code linked with it, its PTX in the fat binary uncompressed (load()
// reads it back from there: ptx_fatbin.h), so nvcc runs once per kernel.
Prepared PtxBackend::prepare(const KernelRef& kernel) {
  if (fs::path(kernel.path).extension() != ".cu")
    throw BackendError("the ptx backend builds .cu sources; not '" + kernel.path + "'");
  std::string nvcc = nvccPath();
  std::string include = abiIncludeDir(), rt = runtimeDir();
  CompileRequest shim;
  shim.source = rt + "/kc_ptx_runtime.cpp";
  shim.kind = "ptx-runtime";
  shim.command = {nvcc, "-O2", "-shared", "-Xcompiler", "-fPIC", "-I", rt};
  shim.extraKeyFiles = {rt + "/kc_ptx_hooks.h"};
  CompileResult runtime = compileCached(shim);
  CompileRequest host;
  host.source = kernel.path;
  host.kind = "ptx";
  const std::string arch = kPtxArch + 3;  // "90"
  // code=compute_90: only PTX goes into the fat binary (no ptxas run), uncompressed.
  host.command = {nvcc, "-O2", "-shared", "-Xcompiler", "-fPIC,-fmax-errors=20", "-gencode",
                  "arch=compute_" + arch + ",code=compute_" + arch, "--no-compress", "-cudart", "none", "-I", include};
  host.linkFlags = {runtime.library};  // its path is in the key: a new shim rebuilds the kernels
  host.extraKeyFiles = {include + "/kcontract/abi.h"};
  CompileResult lib = compileCached(host);
  return {lib.library, lib.cached};
}

void PtxBackend::load(const Prepared& prepared, const std::string& entry) {
  try {
    std::string text = ptx::ptxFromLibrary(prepared.artefact);
    engine_ = std::make_unique<ptx::Engine>(ptx::parseModule(text, prepared.artefact + " (its PTX)"));
  } catch (const ptx::ParseError& e) {
    throw BackendError(std::string("the ptx backend cannot run this kernel: ") + e.what());
  } catch (const ptx::FatbinError& e) {
    throw BackendError(std::string("the ptx backend cannot read this kernel's PTX: ") + e.what());
  }
  kernel_ = loadKernelLibrary(prepared, entry);
  auto install = reinterpret_cast<void (*)(const kc_ptx_hooks*)>(dlsym(kernel_.handle, "kc_ptx_install"));
  if (!install) throw BackendError("the kernel's host library has no kc_ptx_install: it was not built with the ptx runtime shim");
  kc_ptx_hooks hooks{this, hookLaunch, hookAllocated, hookFreed, hookSynchronize, hookSticky, hookCopy, hookSet};
  install(&hooks);
}

void PtxBackend::beginCase() {
  launches_ = 0;
  entryCalls_ = 0;
  heldAfterLaunch_.clear();
}

void* PtxBackend::allocate(size_t bytes) {
  void* p = lazy_ ? lazy_->reserve(bytes) : HostMemoryBackend::allocate(bytes);
  if (engine_) engine_->memory().add(p, bytes);
  return p;
}

void PtxBackend::release(void* buffer) {
  if (engine_) engine_->memory().remove(buffer);
  if (!lazy_ || !lazy_->release(buffer)) HostMemoryBackend::release(buffer);
}

void PtxBackend::copyBytes(void* to, const void* from, size_t bytes) {
  if (lazy_ && (lazy_->overlaps(to, bytes) || lazy_->overlaps(from, bytes)))
    lazy_->copy(to, from, bytes);
  else
    std::memmove(to, from, bytes);
}

void PtxBackend::setBytes(void* p, int value, size_t bytes) {
  if (lazy_ && lazy_->overlaps(p, bytes))
    lazy_->fillPattern(p, {static_cast<uint8_t>(value)}, bytes);
  else
    std::memset(p, value, bytes);
}

void PtxBackend::useDeviceMemory() {
  if (lazy_) return;
  lazy_ = std::make_unique<ptx::LazyMemory>(kLazyLimitBytes);
  if (engine_) engine_->memory().setTouchHook(lazy_.get());
}

void PtxBackend::copyIn(void* device, const void* host, size_t bytes) {
  if (lazy_) lazy_->touch(reinterpret_cast<uint64_t>(device), bytes);
  HostMemoryBackend::copyIn(device, host, bytes);
}

void PtxBackend::copyOut(void* host, const void* device, size_t bytes) {
  if (lazy_)
    lazy_->read(host, device, bytes);
  else
    HostMemoryBackend::copyOut(host, device, bytes);
}

void PtxBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  if (lazy_)
    lazy_->fillPattern(device, pattern, bytes);
  else
    HostMemoryBackend::fill(device, pattern, bytes);
}

void PtxBackend::fillGenerated(void* device, const GeneratedFill& g, size_t count) {
  if (lazy_)
    lazy_->fillGenerated(device, g, count);
  else
    Backend::fillGenerated(device, g, count);
}

PatternCount PtxBackend::countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                                      size_t maxFirst) {
  return lazy_ ? lazy_->countPattern(device, count, pattern, maxFirst)
               : Backend::countPattern(device, count, pattern, maxFirst);
}

void PtxBackend::copyDevice(void* to, const void* from, size_t bytes) {
  if (lazy_)
    lazy_->copy(to, from, bytes);
  else
    Backend::copyDevice(to, from, bytes);
}

uint64_t PtxBackend::compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) {
  return lazy_ ? lazy_->compareBitwise(a, b, count, elementBytes) : Backend::compareBitwise(a, b, count, elementBytes);
}

void PtxBackend::allocated(void* p, size_t bytes) {
  engine_->memory().add(p, bytes);
  shimAllocations_[p] = bytes;
  shimBytes_ += bytes;
}

void PtxBackend::freed(void* p) {
  engine_->memory().remove(p);
  if (auto it = shimAllocations_.find(p); it != shimAllocations_.end()) {
    shimBytes_ -= it->second;
    shimAllocations_.erase(it);
  }
}

int PtxBackend::launch(kc_tensor* args, int32_t nargs) {
  ++entryCalls_;
  int rc = kernel_.entry(args, nargs, &streamToken_);
  heldAfterLaunch_.push_back(shimBytes_);
  return rc;
}

int PtxBackend::run(const std::string& kernel, ptx::Dim3 grid, ptx::Dim3 block, size_t shared, void** args) {
  ptx::LaunchRequest r;
  r.kernel = kernel;
  r.grid = grid;
  r.block = block;
  r.dynamicShared = shared;
  r.args = args;
  // Every kernel launch of one call of the entry runs in that call's order: index order in
  // the first run of a case, reversed in the second, shuffled after (ptx_engine.h).
  r.order = entryCalls_ > 0 ? static_cast<uint64_t>(entryCalls_ - 1) : 0;
  ++launches_;
  ptx::LaunchResult res = engine_->launch(r);
  if (!res.fault.empty()) fault_ = res.fault;
  else if (!res.race.empty())
    fault_ = res.race + (res.races > 1 ? " (" + std::to_string(res.races) + " racing accesses in all)" : "");
  else if (!res.barrier.empty()) fault_ = res.barrier;
  return fault_.empty() ? 0 : kErrIllegalAddress;
}

int PtxBackend::launchKernel(const char* kernel, const unsigned g[3], const unsigned b[3], size_t shared, void** args,
                             void* stream) {
  if (!fault_.empty()) return kErrIllegalAddress;
  ptx::Dim3 grid{g[0], g[1], g[2]}, block{b[0], b[1], b[2]};
  // The launch limits of sm_90: cudaErrorInvalidConfiguration, the kernel never runs.
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0 ||
      grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535 || block.x > 1024 || block.y > 1024 || block.z > 64 ||
      block.count() > 1024 || shared > 227 * 1024)
    return kErrInvalidConfiguration;
  const ptx::Function* fn = engine_->module().find(kernel);
  if (!fn) return 98;  // cudaErrorInvalidDeviceFunction
  if (intercept_) return intercept_(*fn, grid, block, shared, args);
  if (stream != nullptr && stream != &streamToken_) {  // the kernel's own stream: later
    Pending p{kernel, grid, block, shared, {}, stream};
    for (size_t k = 0; k < fn->params.size(); ++k) {
      const ptx::Symbol& s = engine_->module().symbols[static_cast<size_t>(fn->params[k])];
      const auto* bytes = static_cast<const uint8_t*>(args[k]);
      p.args.emplace_back(bytes, bytes + s.size);
    }
    pending_.push_back(std::move(p));
    return 0;
  }
  if (stream == nullptr) runQueued(nullptr, true);  // the legacy default stream waits for the others
  return run(kernel, grid, block, shared, args);
}

int PtxBackend::runQueued(void* stream, bool all) {
  if (stream == &streamToken_ && !all) return stickyError();
  std::vector<Pending> later;
  std::vector<Pending> now;
  for (Pending& p : pending_) (all || p.stream == stream ? now : later).push_back(std::move(p));
  pending_ = std::move(later);
  for (Pending& p : now) {
    if (!fault_.empty()) break;
    std::vector<void*> ptrs;
    for (auto& a : p.args) ptrs.push_back(a.data());
    run(p.kernel, p.grid, p.block, p.shared, ptrs.data());
  }
  return stickyError();
}

// The checker's stream: its work ran at launch. Work the kernel left on a stream of its own
// stays queued (the outputs are read unfinished, as on a GPU).
void PtxBackend::synchronize() {}

void PtxBackend::synchronizeDevice() { runQueued(nullptr, true); }

std::string PtxBackend::setPerturbation(const std::string& kind) {
  if (kind == perturb::kNone) return "";
  if (kind == perturb::kLaunchOrder)
    return "launch order: the CTAs, the warps between barriers and a warp's atomics ran in index order, then "
           "reversed, then shuffled, one order per repeat (the ptx backend varies them on every case)";
  return "not supported: the ptx backend interprets one CTA at a time, with nothing to compete with; it varies the "
         "order of CTAs, warps and atomics from repeat to repeat instead";
}

// Memory the kernel's host code allocated through cudaMalloc and kept: the CUDA backend's
// rule (more than 1 MiB a launch after the first, never given back).
std::string PtxBackend::resourceReport() {
  const auto& h = heldAfterLaunch_;
  if (h.size() < 2) return "";
  for (size_t k = 1; k < h.size(); ++k)
    if (h[k] < h[k - 1]) return "";
  size_t grown = h.back() - h.front();
  size_t launches = h.size() - 1;
  if (grown <= launches * kMiB) return "";
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "device memory: the kernel's cudaMalloc'd memory grew by %.1f MiB from launch 1 to launch %zu (%.1f MiB "
                "per launch) and was never freed: the kernel allocates device memory it does not free",
                static_cast<double>(grown) / kMiB, h.size(), static_cast<double>(grown) / kMiB / static_cast<double>(launches));
  return buf;
}

}  // namespace kc::backend
