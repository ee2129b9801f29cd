// The CUDA backend where it can be tested without a GPU: on such a machine it must report
// itself unavailable with a reason (so cases are SKIPPED, never PASS) and never crash, and
// the checker process must never initialise CUDA itself (workers forked later could not use
// it). On a machine with a GPU the probe instead names the device and its architecture.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "backends/backend.h"

using kc::backend::makeBackend;

#ifdef KC_HAVE_CUDA

#include "backends/cuda/cuda_backend.h"

namespace {

// Whether this process has the CUDA driver library mapped: it loads when the runtime
// initialises, so after probe() it must not be there.
bool driverMapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libcuda.so") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("cuda backend: probe answers without initialising CUDA in this process", "[backend][cuda]") {
  auto be = makeBackend("cuda");
  REQUIRE(be->name() == "cuda");
  kc::backend::Availability a = be->probe();
  if (a.available) {  // a machine with a GPU
    CHECK(a.device.find("sm_") != std::string::npos);
    CHECK(a.reason.empty());
  } else {
    CHECK(!a.reason.empty());
    CHECK(a.device.empty());
    CHECK(a.reason.find("not built") == std::string::npos);  // built in: the reason is CUDA's
  }
  CHECK_FALSE(driverMapped());
  // The answer is kept: a second backend (a second suite kernel) asks no child again.
  kc::backend::Availability again = makeBackend("cuda")->probe();
  CHECK(again.available == a.available);
  CHECK(again.reason == a.reason);
  CHECK(again.device == a.device);
  CHECK_FALSE(driverMapped());
}

TEST_CASE("cuda backend: prepare refuses what it cannot build, before touching a device", "[backend][cuda]") {
  auto be = makeBackend("cuda");
  CHECK_THROWS_AS(be->prepare({"kernel.c", "kc_x", {}}), kc::backend::BackendError);
  CHECK_THROWS_AS(be->prepare({"/nonexistent/kernel.so", "kc_x", {}}), kc::backend::BackendError);
  if (!be->probe().available)  // no device: a .cu source cannot be built for one
    CHECK_THROWS_AS(be->prepare({std::string(KC_SOURCE_DIR) + "/examples/softmax/softmax.cu", "kc_acme_softmax", {}}),
                    kc::backend::BackendError);
  CHECK_FALSE(driverMapped());
}

TEST_CASE("cuda backend: a run with no launch reports no resource", "[backend][cuda]") {
  kc::backend::CudaBackend be;
  CHECK(be.resourceReport().empty());
  CHECK(be.fault().empty());  // no stream yet: nothing ran, nothing faulted, no CUDA call made
  CHECK_FALSE(driverMapped());
}

TEST_CASE("cuda backend: the device-memory leak rule", "[backend][cuda]") {
  using kc::backend::deviceMemoryLeakReport;
  const size_t MiB = size_t{1} << 20, base = size_t{80} << 30;
  CHECK(deviceMemoryLeakReport({}).empty());
  CHECK(deviceMemoryLeakReport({base}).empty());                                 // one launch: no trend
  CHECK(deviceMemoryLeakReport({base, base, base}).empty());                     // nothing kept
  CHECK(deviceMemoryLeakReport({base, base - MiB, base - 2 * MiB}).empty());     // exactly 1 MiB a launch
  CHECK(deviceMemoryLeakReport({base, base - 8 * MiB, base + MiB}).empty());     // memory came back
  std::string r = deviceMemoryLeakReport({base, base - 8 * MiB, base - 16 * MiB});  // 8 MiB a launch
  CHECK(r.find("16.0 MiB") != std::string::npos);
  CHECK(r.find("8.0 MiB per launch") != std::string::npos);
  CHECK(!deviceMemoryLeakReport({base, base - 4 * MiB}).empty());                // two launches suffice
  // With the readings right before each launch: the memory must go during the launches.
  CHECK(!deviceMemoryLeakReport({base, base - 8 * MiB, base - 16 * MiB}, {base + 8 * MiB, base, base - 8 * MiB}).empty());
  // Another process took it between the launches (each launch took nothing itself).
  CHECK(deviceMemoryLeakReport({base, base - 8 * MiB, base - 16 * MiB}, {base, base - 8 * MiB, base - 16 * MiB}).empty());
  // ... or during one launch only (the rule on the readings after alone would report it).
  CHECK(!deviceMemoryLeakReport({base, base - 512 * MiB, base - 512 * MiB}).empty());
  CHECK(deviceMemoryLeakReport({base, base - 512 * MiB, base - 512 * MiB}, {base, base, base - 512 * MiB}).empty());
}

TEST_CASE("cuda backend: nvcc comes from CUDACXX first", "[backend][cuda]") {
  const char* old = std::getenv("CUDACXX");
  std::string saved = old ? old : "";
  setenv("CUDACXX", "/opt/some/nvcc", 1);
  CHECK(kc::backend::CudaBackend::nvccPath() == "/opt/some/nvcc");
  if (old)
    setenv("CUDACXX", saved.c_str(), 1);
  else
    unsetenv("CUDACXX");
  CHECK_FALSE(kc::backend::CudaBackend::nvccPath().empty());
}

#else

TEST_CASE("cuda backend: absent from this build, every case is skipped with the reason", "[backend][cuda]") {
  auto be = makeBackend("cuda");
  REQUIRE(be->name() == "cuda");
  kc::backend::Availability a = be->probe();
  CHECK_FALSE(a.available);
  CHECK(a.reason.find("not built") != std::string::npos);
  CHECK_THROWS_AS(be->prepare({"kernel.cu", "kc_x"}), kc::backend::BackendError);
}

#endif
