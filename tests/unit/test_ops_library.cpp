// The standard op library (stdlib/ops/): every op file has its standard contract, a
// conforming host kernel, and a section in docs/ops.md.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("every stdlib op has its contract, a conforming kernel and docs", "[ops][docs]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(KC_SOURCE_DIR);
  std::string kernels;  // every conforming kernel source, concatenated
  for (const auto& e : fs::directory_iterator(root / "stdlib/ops/kernels"))
    if (e.path().extension() == ".c") kernels += slurp(e.path());
  const std::string docs = slurp(root / "docs/ops.md");
  size_t ops = 0;
  for (const auto& e : fs::directory_iterator(root / "stdlib/ops")) {
    if (e.path().extension() != ".kcontract") continue;
    ++ops;
    const std::string name = e.path().stem().string();
    const std::string text = slurp(e.path());
    INFO(name);
    CHECK(text.find("op std.ops." + name + "(") != std::string::npos);
    CHECK(text.find("contract std.op." + name + "@1") != std::string::npos);
    CHECK(kernels.find("int kc_" + name + "(kc_tensor* args, int32_t nargs, void* stream)") != std::string::npos);
    CHECK(docs.find("kc_" + name + "(") != std::string::npos);
  }
  CHECK(ops >= 20);
}

#include "compiler/targets.h"

TEST_CASE("ops: the op option takes the newest contract version whatever the order of files", "[ops]") {
  namespace fs = std::filesystem;
  const std::string stdlib = std::string(KC_SOURCE_DIR) + "/stdlib";
  // std.op.matmul@1 and @2 are kept beside @3 (batch invariance became an opt-in, then
  // std.exc.nan-propagation@2 came in).
  CHECK(kc::newestContractId("std.op.matmul", {stdlib}) == "std.op.matmul@3");
  CHECK(kc::newestContractId("std.op.add", {stdlib}) == "std.op.add@2");
  CHECK(kc::newestContractId("std.op.no_such_op", {stdlib}).empty());
  // Versions compare as numbers, and a class of the same name does not count.
  const fs::path dir = fs::temp_directory_path() / "kc_newest_version_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto contract = [](const std::string& kernel, const std::string& id) {
    return "kernel " + kernel + "(x: f32[N]) -> (y: f32[N]) where N in 1..8\n"
           "contract " + id + " \"a copy\" {\n  scope {\n    kernel " + kernel + "\n  }\n"
           "  oracle f64 {\n    y[i] = x[i]\n  }\n  post {\n    forall i: y[i] == y*[i]\n  }\n}\n";
  };
  std::ofstream(dir / "a.kcontract") << "kcontract 1\n" << contract("k", "t.c@10");
  std::ofstream(dir / "b.kcontract") << "kcontract 1\n" << contract("k2", "t.c@9")
                                     << "class t.c@11 \"a class\" {\n  post {\n    forall cells: y == y*\n  }\n}\n";
  CHECK(kc::newestContractId("t.c", {dir.string()}) == "t.c@10");
  fs::remove_all(dir);
}
