// check --devices: which GPUs, as CUDA_VISIBLE_DEVICES values (checker/devices.h).
#include <catch2/catch.hpp>

#include "checker/devices.h"

using kc::check::resolveDevices;

TEST_CASE("devices: all, and numbers, index the GPUs CUDA sees") {
  auto all = resolveDevices("all", 2, "", nullptr);
  CHECK(all.error.empty());
  CHECK(all.visible == std::vector<std::string>{"0", "1"});
  auto one = resolveDevices("1", 2, "", nullptr);
  CHECK(one.visible == std::vector<std::string>{"1"});
  auto both = resolveDevices("1,0", 2, "", nullptr);
  CHECK(both.visible == std::vector<std::string>{"1", "0"});
}

TEST_CASE("devices: the checker's own CUDA_VISIBLE_DEVICES is what the numbers index") {
  auto lanes = resolveDevices("0,1", 2, "", "4,GPU-5a1e");
  CHECK(lanes.error.empty());
  CHECK(lanes.visible == std::vector<std::string>{"4", "GPU-5a1e"});
}

TEST_CASE("devices: refusals name what is wrong") {
  CHECK(resolveDevices("2", 2, "", nullptr).error == "--devices names device 2, but CUDA sees 2 devices (0 to 1)");
  CHECK(resolveDevices("1", 1, "", nullptr).error == "--devices names device 1, but CUDA sees 1 device (0)");
  CHECK(resolveDevices("0,0", 2, "", nullptr).error == "--devices names device 0 twice");
  CHECK(resolveDevices("0,", 2, "", nullptr).error == "--devices is 'all' or device numbers separated by commas (0,1); not '0,'");
  CHECK(resolveDevices("-1", 2, "", nullptr).error == "--devices is 'all' or device numbers separated by commas (0,1); not '-1'");
  CHECK(resolveDevices("gpu0", 2, "", nullptr).error == "--devices is 'all' or device numbers separated by commas (0,1); not 'gpu0'");
  CHECK(resolveDevices("all", 0, "no CUDA device (cudaGetDeviceCount failed: no CUDA-capable device is detected)", nullptr).error ==
        "--devices all: no CUDA device (cudaGetDeviceCount failed: no CUDA-capable device is detected)");
}

TEST_CASE("devices: jobs on the cuda and exec backends are spread; the others are not") {
  CHECK(kc::check::spreadsOverDevices("cuda"));
  CHECK(kc::check::spreadsOverDevices("exec"));
  CHECK_FALSE(kc::check::spreadsOverDevices("host"));
  CHECK_FALSE(kc::check::spreadsOverDevices("ptx"));
  CHECK_FALSE(kc::check::spreadsOverDevices("opencl"));
}
