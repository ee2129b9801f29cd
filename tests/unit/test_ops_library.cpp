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
