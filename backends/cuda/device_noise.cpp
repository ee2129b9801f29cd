#include "backends/cuda/device_noise.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "backends/backend.h"
#include "backends/host/compile_cache.h"
#include "stdlib/data_root.h"

namespace kc::backend {

namespace fs = std::filesystem;

namespace {

constexpr int kThreads = 256;
// Noise blocks per SM for `noise` and `launch_order`: 16 of 256 threads is twice what an SM
// holds (2,048 threads on Hopper), so every SM is full when the kernel launches and its
// blocks start as noise blocks retire; work a kernel leaves on a stream of its own is still
// queued when the stream it was given is done (a private stream then loses its race).
constexpr int kNoisePerSm = 16;
// The noise buffer and the passes over it per launch: 256 MiB, larger than any L2, streamed
// 4 times (about 0.5 ms on an H200). KC_NOISE_MIB and KC_NOISE_PASSES override them.
size_t noiseBytes() {
  const char* v = std::getenv("KC_NOISE_MIB");
  long mib = v ? std::atol(v) : 256;
  return static_cast<size_t>(mib > 0 ? mib : 256) << 20;
}

int noisePasses() {
  const char* v = std::getenv("KC_NOISE_PASSES");
  int p = v ? std::atoi(v) : 4;
  return p > 0 ? p : 4;
}

}  // namespace

NoiseStep noiseStep(const std::string& kind, int launchIndex, int sms) {
  NoiseStep s;
  int k = launchIndex % 3;
  if (kind == perturb::kNoise) {
    s.before = true;
    s.blocks = kNoisePerSm * sms;
  } else if (kind == perturb::kLaunchOrder) {
    s.before = k == 0;
    s.after = k == 1;
    s.blocks = kNoisePerSm * sms;
  } else if (kind == perturb::kOccupancy) {
    const int perSm[] = {1, 4, 16};
    s.before = true;
    s.blocks = perSm[k] * sms;
  }
  return s;
}

void DeviceNoise::prepare(const std::string& nvcc, const std::string& arch) {
  try {
    CompileRequest r;
    r.source = (fs::path(stdlib::dataDir()) / "backends" / "cuda" / "noise_kernel.cu").string();
    r.kind = "cuda";
    r.command = {nvcc, "-O2", "-shared", "-Xcompiler", "-fPIC", "-arch=" + arch};
    library_ = compileCached(r).library;
    prepareError_.clear();
  } catch (const std::exception& e) {
    std::string m = e.what();
    prepareError_ = "the noise kernel could not be built: " + m.substr(0, m.find('\n'));
  }
}

std::string DeviceNoise::configure(const std::string& kind) {
  kind_ = perturb::kNone;  // a reused worker's last run may have been perturbed
  if (kind == perturb::kNone) return "";
  if (kind != perturb::kNoise && kind != perturb::kLaunchOrder && kind != perturb::kOccupancy)
    return "not supported: unknown perturbation '" + kind + "'";
  const std::string unperturbed = "; the repeats ran unperturbed";
  if (!prepareError_.empty()) return "not supported: " + prepareError_ + unperturbed;
  void* lib = dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) return std::string("not supported: cannot load the noise kernel: ") + dlerror() + unperturbed;
  auto init = reinterpret_cast<int (*)(size_t, int*, char*, size_t)>(dlsym(lib, "kc_noise_init"));
  launch_ = reinterpret_cast<int (*)(int, int, int)>(dlsym(lib, "kc_noise_launch"));
  error_ = reinterpret_cast<const char* (*)()>(dlsym(lib, "kc_noise_error"));
  if (!init || !launch_ || !error_) return "not supported: the noise library lacks its entry points" + unperturbed;
  char err[256] = {};
  if (init(noiseBytes(), &sms_, err, sizeof err) != 0) {
    launch_ = nullptr;
    return std::string("not supported: ") + err + unperturbed;
  }
  kind_ = kind;
  std::string size = std::to_string(noiseBytes() >> 20) + " MiB x " + std::to_string(noisePasses()) + " passes";
  std::string sms = std::to_string(sms_);
  if (kind == perturb::kNoise)
    return "noise: a memory-bound kernel (" + std::to_string(kNoisePerSm * sms_) + " blocks of 256 threads, " + size +
           ") on a concurrent stream, launched before every repeat";
  if (kind == perturb::kLaunchOrder)
    return "launch_order: noise (" + std::to_string(kNoisePerSm * sms_) + " blocks, " + size +
           ") launched before the kernel, after it, then not at all, in turn per repeat";
  return "occupancy: noise of 1, 4, 16 blocks per SM (" + sms + " SMs, " + size + ") in turn per repeat";
}

void DeviceNoise::launch(const NoiseStep& s) {
  // A failed noise launch changes no verdict: the kernel's own stream is what is checked.
  if (launch_ && s.blocks > 0) launch_(s.blocks, kThreads, noisePasses());
}

void DeviceNoise::before(int launchIndex) {
  NoiseStep s = noiseStep(kind_, launchIndex, sms_);
  if (s.before) launch(s);
}

void DeviceNoise::after(int launchIndex) {
  NoiseStep s = noiseStep(kind_, launchIndex, sms_);
  if (s.after) launch(s);
}

}  // namespace kc::backend
