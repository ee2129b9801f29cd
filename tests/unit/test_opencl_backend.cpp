// The OpenCL backend where it can be tested without running a case: the probe must not
// initialise the OpenCL runtime in this process (a worker forked afterwards could not use
// PoCL, docs/backends.md), and prepare() refuses what it cannot build.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "backends/backend.h"

using kc::backend::makeBackend;

namespace {

// Whether a library whose path contains `name` is mapped into this process.
bool mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("opencl backend: probe answers without loading an OpenCL driver in this process", "[backend][opencl]") {
  auto be = makeBackend("opencl");
  REQUIRE(be->name() == "opencl");
  kc::backend::Availability a = be->probe();
  if (a.available) {
    CHECK(a.reason.empty());
    CHECK(a.device.find(" / ") != std::string::npos);  // PLATFORM / DEVICE
  } else {
    CHECK(!a.reason.empty());
  }
  CHECK_FALSE(mapped("libpocl"));
  CHECK_FALSE(mapped("libnvidia-opencl"));
  kc::backend::Availability again = makeBackend("opencl")->probe();
  CHECK(again.available == a.available);
  CHECK(again.device == a.device);
  CHECK_FALSE(mapped("libpocl"));
}

TEST_CASE("opencl backend: prepare refuses what it cannot build", "[backend][opencl]") {
  auto be = makeBackend("opencl");
  CHECK_THROWS_AS(be->prepare({"kernel.cu", "kc_x", {}}), kc::backend::BackendError);
  CHECK_THROWS_AS(be->prepare({"/nonexistent/kernel.so", "kc_x", {}}), kc::backend::BackendError);
}

