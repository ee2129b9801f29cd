// The front end's input limits (docs/language.md, "Limits"): long operator chains and deep
// nesting are refused with KC1009 at a location, never a stack overflow, in every stage (parse,
// fmt, sema); a file over 2 MiB is KC1011; a real literal beyond f64 is KC1006. And the fuzz
// corpus (tests/fuzz/corpus/) and crashers (tests/fuzz/regressions/) go through sema too.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "compiler/pipeline.h"
#include "compiler/sema/dump.h"
#include "tests/fuzz/roundtrip.h"

namespace fs = std::filesystem;

namespace {

// A valid contract whose tolerance is `tol` (one line: line 14, column 14 of the file).
std::string contractWithTolerance(const std::string& tol) {
  return "kcontract 1\n\n"
         "kernel scale(x: f32[N]) -> (y: f32[N])\n"
         "  where N in 1..64\n\n"
         "contract acme.deep@1 \"deep\" {\n"
         "  scope {\n"
         "    kernel scale\n"
         "  }\n"
         "  oracle f64 {\n"
         "    y[i] = x[i]\n"
         "  }\n"
         "  tolerance {\n"
         "    tol[i] = " + tol + "\n"
         "  }\n"
         "  post {\n"
         "    forall i: |y[i] - y*[i]| <= tol[i]\n"
         "  }\n"
         "}\n";
}

// `|x[i]| * 0 + 1 + 1 + ...` with `terms` ones: a left-deep chain of terms - 1 operators and more.
std::string chain(size_t terms, const char* op = " + ") {
  std::string s = "|x[i]| * 0";
  for (size_t k = 0; k < terms; ++k) s += std::string(op) + "1";
  return s;
}

// The first diagnostic, printed without colour, and how many there are.
std::string firstDiagnostic(const kc::Compilation& c, size_t* count = nullptr) {
  auto all = c.diags.sorted();
  if (count) *count = all.size();
  if (all.empty()) return "";
  std::ostringstream out;
  kc::printDiagnostic(out, c.sources, all[0], false);
  std::string text = out.str();
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE("a 20,000-term chain is refused once with KC1009 at its start, in parse and in sema", "[limits]") {
  for (const char* op : {" + ", " - ", " * ", " && "}) {
    INFO(op);
    std::string text = contractWithTolerance(chain(20000, op));
    for (kc::Stage stage : {kc::Stage::Parse, kc::Stage::Sema}) {
      kc::Compilation c;
      CHECK_FALSE(kc::compileText(c, "deep.kcontract", text, stage));
      size_t n = 0;
      CHECK(firstDiagnostic(c, &n) ==
            "deep.kcontract:14:14: error[KC1009]: this expression nests more than 4096 operators deep (each operator of a "
            "chain such as a + b + c counts); split it into definitions");
      CHECK(n == 1);
    }
  }
}

TEST_CASE("a 1,000-term chain compiles to IR, prints, and keeps the fmt round trip", "[limits]") {
  std::string text = contractWithTolerance(chain(1000));
  kc::Compilation c;
  REQUIRE(kc::compileText(c, "long.kcontract", text, kc::Stage::Sema));
  CHECK(kc::sema::dumpProgram(*c.program, c.fileIds, false).size() > 4000);
  CHECK(kc::fuzz::roundTripFailure(text) == "");
}

TEST_CASE("nesting past the parser's limits is KC1009 with its location", "[limits]") {
  kc::Compilation parens;
  CHECK_FALSE(kc::compileText(parens, "p.kcontract", contractWithTolerance(std::string(20000, '(') + "1" + std::string(20000, ')')),
                              kc::Stage::Sema));
  CHECK(firstDiagnostic(parens) ==
        "p.kcontract:14:76: error[KC1009]: brackets nested more than 64 deep; split the expression or block into smaller parts");
  kc::Compilation minus;
  CHECK_FALSE(kc::compileText(minus, "m.kcontract", contractWithTolerance(std::string(20000, '-') + "1"), kc::Stage::Sema));
  CHECK(firstDiagnostic(minus).rfind("m.kcontract:14:", 0) == 0);
  CHECK(firstDiagnostic(minus).find("error[KC1009]") != std::string::npos);
}

TEST_CASE("a file over 2 MiB is KC1011, refused before it is parsed", "[limits]") {
  std::string text = "kcontract 1\n" + std::string((2u << 20), '\n');
  kc::Compilation c;
  CHECK_FALSE(kc::compileText(c, "big.kcontract", text, kc::Stage::Parse));
  CHECK(firstDiagnostic(c) ==
        "big.kcontract:1:1: error[KC1011]: the file is 2097164 bytes; the parser accepts at most 2097152 (2 MiB): split it "
        "into modules");
}

TEST_CASE("a real literal beyond f64 is KC1006: 1e999 would be an infinite tolerance", "[limits]") {
  kc::Compilation over;
  CHECK_FALSE(kc::compileText(over, "inf.kcontract", contractWithTolerance("1e999 * |x[i]|"), kc::Stage::Sema));
  CHECK(firstDiagnostic(over) ==
        "inf.kcontract:14:14: error[KC1006]: real literal 1e999 overflows to infinity (reals are f64: at most about 1.8e308)");
  kc::Compilation under;
  CHECK_FALSE(kc::compileText(under, "zero.kcontract", contractWithTolerance("1e-999 + |x[i]|"), kc::Stage::Sema));
  CHECK(firstDiagnostic(under) ==
        "zero.kcontract:14:14: error[KC1006]: real literal 1e-999 is too small for an f64 and would be 0 (the smallest is "
        "about 4.9e-324)");
  kc::Compilation fine;
  CHECK(kc::compileText(fine, "fine.kcontract", contractWithTolerance("1e300 * |x[i]| + 0.0 + 0e5 + 4.9e-324"), kc::Stage::Sema));
}

TEST_CASE("the fuzz corpus and crashers compile to IR without crashing, and keep the fmt round trip", "[fuzz][limits]") {
  size_t checked = 0;
  for (const char* dir : {"tests/fuzz/corpus", "tests/fuzz/regressions"}) {
    fs::path root = fs::path(KC_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      INFO(entry.path().string());
      kc::Compilation c;
      if (kc::compileText(c, "input.kcontract", text.str(), kc::Stage::Sema) && c.program)
        (void)kc::sema::dumpProgram(*c.program, c.fileIds, true);
      std::ostringstream sink;
      c.diags.print(sink, true);
      CHECK(kc::fuzz::roundTripFailure(text.str()) == "");
      ++checked;
    }
  }
  REQUIRE(checked >= 3);
}
