// Worker processes (checker/run/worker.h) on the host backend: a reused worker runs case after
// case in one process while they end cleanly, and every crash, timeout, nonzero return or
// fresh-worker run gets a new process; results come back the same either way.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "checker/run/worker.h"

namespace {

namespace fs = std::filesystem;
using kc::run::LaunchStatus;

// y[i] = 2 x[i], and y[3] = a token of the worker process (its pid would not do: in a cell
// every worker has the same one). x[0] picks a misbehaviour: -1 crashes,
// -2 hangs, -3 returns 3.
const char* kKernel = R"(#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <time.h>
#include "kcontract/abi.h"
static float token;  /* set once per process (per load of the library) */
int kc_twice(kc_tensor* args, int32_t nargs, void* stream) {
  (void)nargs; (void)stream;
  const float* x = (const float*)args[0].data;
  float* y = (float*)args[1].data;
  if (x[0] == -1.0f) { volatile float* volatile p = 0; p[0] = 1.0f; }
  if (x[0] == -2.0f) { volatile int spin = 0; for (;;) spin = spin + 1; }
  if (x[0] == -3.0f) return 3;
  for (int i = 0; i < 3; ++i) y[i] = 2.0f * x[i];
  if (token == 0.0f) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    token = (float)(t.tv_nsec % 1000000 + 1);
  }
  y[3] = token;
  return 0;
}
)";

struct Fixture {
  std::unique_ptr<kc::backend::Backend> be = kc::backend::makeBackend("host");
  kc::backend::Prepared prepared;
  kc::run::CaseSetup setup;

  Fixture() {
    fs::path dir = fs::temp_directory_path() / ("kc-test-worker-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "twice.c") << kKernel;
    prepared = be->prepare({(dir / "twice.c").string(), "kc_twice", {}});
    for (bool output : {false, true}) {
      kc::run::ArgSpec a;
      a.name = output ? "y" : "x";
      a.output = output;
      a.shape = {4};
      a.strides = {1};
      a.storage = 4;
      setup.args.push_back(a);
    }
  }

  kc::run::WorkerRequest request(float first, kc::run::Worker* worker, double timeout = 10) {
    kc::run::WorkerRequest r;
    r.backend = be.get();
    r.prepared = prepared;
    r.entry = "kc_twice";
    r.setup = &setup;
    std::vector<float> x = {first, 2.0f, 3.0f, 0.0f};
    r.storage.resize(2);
    r.storage[0].resize(16);
    std::memcpy(r.storage[0].data(), x.data(), 16);
    r.storage[1].assign(16, 0xA5);
    r.repeats = 2;
    r.timeoutSeconds = timeout;
    r.worker = worker;
    return r;
  }
};

// The output of launch k: y[0..3], the last cell the worker's process id.
std::vector<float> outputOf(const kc::run::LaunchRecord& rec, size_t launch) {
  std::vector<float> y(4);
  std::memcpy(y.data(), rec.images.at(1).at(launch).data() + kc::run::kCanaryBytes, 16);
  return y;
}

}  // namespace

TEST_CASE("a reused worker runs clean runs in one process", "[worker]") {
  Fixture f;
  kc::run::Worker w(true);
  auto a = w.run(f.request(1.0f, &w));
  auto b = w.run(f.request(5.0f, &w));
  REQUIRE(a.status == LaunchStatus::Ok);
  REQUIRE(b.status == LaunchStatus::Ok);
  CHECK(a.launches == 2);
  CHECK(outputOf(a, 1)[0] == 2.0f);
  CHECK(outputOf(b, 0)[0] == 10.0f);
  CHECK(outputOf(b, 1)[2] == 6.0f);
  CHECK(outputOf(a, 0)[3] == outputOf(b, 1)[3]);  // the same process
  CHECK(w.started() == 1);
  CHECK(a.images.at(0).size() == 1);  // the input's image after launch 1
  CHECK(kc::run::canariesIntact(b.images.at(1).at(1), 0));  // the request's setup keeps key 0
}

TEST_CASE("after a crash, a timeout or a nonzero return a reused worker starts afresh", "[worker]") {
  Fixture f;
  kc::run::Worker w(true);
  auto first = w.run(f.request(1.0f, &w));
  REQUIRE(first.status == LaunchStatus::Ok);

  auto crash = w.run(f.request(-1.0f, &w));
  CHECK(crash.status == LaunchStatus::Crash);
  CHECK(crash.message.rfind("SIGSEGV", 0) == 0);
  auto afterCrash = w.run(f.request(1.0f, &w));
  REQUIRE(afterCrash.status == LaunchStatus::Ok);
  CHECK(outputOf(afterCrash, 0)[3] != outputOf(first, 0)[3]);
  CHECK(w.started() == 2);

  auto hang = w.run(f.request(-2.0f, &w, 0.5));
  CHECK(hang.status == LaunchStatus::Timeout);
  CHECK(hang.message == "no result after 0.5 s; the worker was killed");
  REQUIRE(w.run(f.request(1.0f, &w)).status == LaunchStatus::Ok);
  CHECK(w.started() == 3);

  auto nonzero = w.run(f.request(-3.0f, &w));
  CHECK(nonzero.status == LaunchStatus::Nonzero);
  CHECK(nonzero.rc == 3);
  CHECK(nonzero.launches == 1);
  auto afterNonzero = w.run(f.request(4.0f, &w));
  REQUIRE(afterNonzero.status == LaunchStatus::Ok);
  CHECK(outputOf(afterNonzero, 0)[0] == 8.0f);
  CHECK(w.started() == 4);
}

TEST_CASE("a fresh worker runs every run in a new process", "[worker]") {
  Fixture f;
  kc::run::Worker w(false);
  auto a = w.run(f.request(1.0f, &w));
  auto b = w.run(f.request(1.0f, &w));
  REQUIRE(a.status == LaunchStatus::Ok);
  REQUIRE(b.status == LaunchStatus::Ok);
  CHECK(outputOf(a, 0)[3] != outputOf(b, 0)[3]);
  CHECK(w.started() == 2);
  auto alone = kc::run::runInWorker(f.request(3.0f, nullptr));  // no worker: one of its own
  REQUIRE(alone.status == LaunchStatus::Ok);
  CHECK(outputOf(alone, 1)[1] == 4.0f);
}

TEST_CASE("worker policy: --workers takes auto, fresh or reuse", "[worker]") {
  CHECK(kc::run::parseWorkerPolicy("auto") == kc::run::WorkerPolicy::Auto);
  CHECK(kc::run::parseWorkerPolicy("fresh") == kc::run::WorkerPolicy::Fresh);
  CHECK(kc::run::parseWorkerPolicy("reuse") == kc::run::WorkerPolicy::Reuse);
  CHECK_THROWS_WITH(kc::run::parseWorkerPolicy("pool"), "--workers must be auto, fresh or reuse; not 'pool'");
}
