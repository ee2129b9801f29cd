// The exec backend's pieces that need no adaptor: .npy files written and read back, and
// exec specs (argv as written, no shell; errors that name what is wrong).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "backends/backend.h"
#include "backends/exec/exec_backend.h"
#include "backends/exec/npy.h"
#include "kcontract/abi.h"

namespace fs = std::filesystem;
using kc::backend::makeBackend;

namespace {

std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("kc-unit-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("npy: what is written reads back, shapes and dtypes included", "[backend][exec]") {
  using kc::backend::npy::Array;
  std::string path = scratch("a.npy");
  Array a{"<f4", {2, 3}, {}};
  for (int i = 0; i < 6; ++i) {
    float f = static_cast<float>(i) - 2.5f;
    const auto* b = reinterpret_cast<const uint8_t*>(&f);
    a.data.insert(a.data.end(), b, b + 4);
  }
  kc::backend::npy::write(path, a);
  Array b = kc::backend::npy::read(path);
  CHECK(b.descr == "<f4");
  CHECK(b.shape == std::vector<int64_t>{2, 3});
  CHECK(b.data == a.data);
  // The header is padded so that the data starts at a multiple of 64 bytes.
  CHECK(fs::file_size(path) % 64 == 24 % 64);
  Array scalar{"<f8", {}, std::vector<uint8_t>(8, 0)};
  kc::backend::npy::write(path, scalar);
  CHECK(kc::backend::npy::read(path).shape.empty());
  Array one{"|u1", {5}, {1, 2, 3, 4, 5}};
  kc::backend::npy::write(path, one);
  CHECK(kc::backend::npy::read(path).shape == std::vector<int64_t>{5});
  CHECK(kc::backend::npy::descrOf(KC_BF16) == "<u2");
  CHECK(kc::backend::npy::nameOf(KC_BF16) == "bf16");
  std::ofstream(path) << "not numpy";
  CHECK_THROWS(kc::backend::npy::read(path));
  fs::remove_all(fs::path(path).parent_path());
}

TEST_CASE("exec spec: argv as written, errors named", "[backend][exec]") {
  std::string path = scratch("k.kcexec");
  std::ofstream(path) << R"({"command": ["python3", "a b.py", "$HOME;rm"], "env": {"X": "1"}})";
  kc::backend::ExecSpec s = kc::backend::readExecSpec(path);
  CHECK(s.command == std::vector<std::string>{"python3", "a b.py", "$HOME;rm"});  // no shell, no expansion
  CHECK(s.env.size() == 1);
  CHECK(s.dir == fs::path(path).parent_path().string());
  std::ofstream(path) << R"({"command": []})";
  CHECK_THROWS_WITH(kc::backend::readExecSpec(path), Catch::Contains("non-empty array"));
  std::ofstream(path) << R"({"command": ["x"], "shell": true})";
  CHECK_THROWS_WITH(kc::backend::readExecSpec(path), Catch::Contains("unknown key \"shell\""));
  std::ofstream(path) << R"({"command": ["x"], "protocol": "kcontract-exec/2", "device_memory": true})";
  CHECK(kc::backend::readExecSpec(path).deviceMemory);
  CHECK_FALSE(kc::backend::readExecSpec(path).protocol == 1);
  std::ofstream(path) << R"({"command": ["x"], "protocol": "kcontract-exec/2", "device_memory": "yes"})";
  CHECK_THROWS_WITH(kc::backend::readExecSpec(path), Catch::EndsWith("\"device_memory\" must be true or false"));
  std::ofstream(path) << R"({"command": ["x"], "device_memory": true})";
  CHECK_THROWS_WITH(kc::backend::readExecSpec(path),
                    Catch::EndsWith("\"device_memory\" needs \"protocol\": \"kcontract-exec/2\""));
  auto be = makeBackend("exec");
  CHECK(be->probe().available);
  CHECK_THROWS_AS(be->prepare({"kernel.c", "kc_x", {}}), kc::backend::BackendError);
  fs::remove_all(fs::path(path).parent_path());
}
