// Diagnostics through the library API: the clang-style text with its caret underline,
// sorting and de-duplication, warnings-as-errors, and the catalogue.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "compiler/pipeline.h"

namespace {

std::string printed(const kc::Compilation& c) {
  std::ostringstream out;
  for (const auto& d : c.diags.sorted()) kc::printDiagnostic(out, c.sources, d, false);
  return out.str();
}

// A range on one line of file `id`, columns [col, endCol).
kc::SourceRange rangeAt(const kc::SourceManager& sm, uint32_t id, uint32_t line, uint32_t col, uint32_t endCol) {
  const kc::SourceFile& f = sm.file(id);
  uint32_t start = 0;
  uint32_t l = 1;
  const std::string& t = f.text();
  for (uint32_t i = 0; i < t.size() && l < line; ++i)
    if (t[i] == '\n') {
      ++l;
      start = i + 1;
    }
  kc::SourceRange r;
  r.file = id;
  r.begin = f.posAt(start + col - 1);
  r.end = f.posAt(start + endCol - 1);
  return r;
}

}  // namespace

TEST_CASE("the caret underlines every character of a multi-character token", "[diag]") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", "kcontract 1\ncontract a@1 {\n  protocol { samples 100 }\n}\n", kc::Stage::Parse);
  REQUIRE(!c.files[0]);
  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == kc::DiagCode::UnknownItem);
  std::string text = printed(c);
  std::string expectedTail = "  protocol { samples 100 }\n"
                             "             ^~~~~~~\n";
  CHECK(text.rfind("t.kcontract:3:14: error[KC1010]: unknown protocol item 'samples'", 0) == 0);
  REQUIRE(text.size() >= expectedTail.size());
  CHECK(text.substr(text.size() - expectedTail.size()) == expectedTail);
}

TEST_CASE("the underline of a tab-indented line keeps the tabs so the caret lines up", "[diag]") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", "kcontract 1\ncontract a@1 {\n\tpre {\n\t\ta $ b\n\t}\n}\n", kc::Stage::Parse);
  REQUIRE(!c.files[0]);
  auto ds = c.diags.sorted();
  REQUIRE(!ds.empty());
  std::ostringstream out;
  kc::printDiagnostic(out, c.sources, ds[0], false);
  CHECK(out.str() ==
        "t.kcontract:4:5: error[KC1001]: unexpected character '$'\n"
        "\t\ta $ b\n"
        "\t\t  ^\n");
}

TEST_CASE("one bad statement in a multi-line section gives one diagnostic", "[diag]") {
  for (const char* text : {"kcontract 1\ncontract a@1 {\n  pre {\n    a $ b\n  }\n}\n",
                           "kcontract 1\ncontract a@1 {\n  post {\n    y = y*\n  }\n}\n",
                           "kcontract 1\ncontract a@1 {\n  protocol {\n    samples 100\n  }\n}\n"}) {
    INFO(text);
    kc::Compilation c;
    kc::compileText(c, "t.kcontract", text, kc::Stage::Parse);
    INFO(printed(c));
    CHECK(c.diags.sorted().size() == 1);
  }
}

TEST_CASE("a multi-character token on a tab-indented line", "[diag]") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", "kcontract 1\n\tcontract a@1 {\n\t\tpost { y = y* }\n\t}\n", kc::Stage::Parse);
  // `=` where post expects an expression.
  std::string text = printed(c);
  CHECK(text.find("t.kcontract:3:12: error[KC1003]: ") == 0);
  CHECK(text.find("\t\tpost { y = y* }\n\t\t         ^\n") != std::string::npos);
}

TEST_CASE("diagnostics in color mark the severity and the underline", "[diag]") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", "kcontract 1\nimport a\nimport a\n", kc::Stage::Parse);
  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 1);
  std::ostringstream out;
  kc::printDiagnostic(out, c.sources, ds[0], true);
  CHECK(out.str().find("\033[1;35mwarning") != std::string::npos);
  CHECK(out.str().find("\033[1;32m^~~~~~~~\033[0m") != std::string::npos);
}

TEST_CASE("three errors on three lines give three located diagnostics", "[diag]") {
  kc::Compilation c;
  bool ok = kc::compileText(c, "three.kcontract",
                            "kcontract 1\n\ncontract acme.c@1 {\n  pre { a $ b }\n  post { y = y* }\n"
                            "  protocol { samples 100 }\n}\n",
                            kc::Stage::Parse);
  CHECK(!ok);
  CHECK(!c.files[0]);
  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 3);
  CHECK(ds[0].code == kc::DiagCode::BadCharacter);
  CHECK(ds[0].range.begin.line == 4);
  CHECK(ds[0].range.begin.column == 11);
  CHECK(ds[1].code == kc::DiagCode::UnexpectedToken);
  CHECK(ds[1].range.begin.line == 5);
  CHECK(ds[2].code == kc::DiagCode::UnknownItem);
  CHECK(ds[2].range.begin.line == 6);
  CHECK(c.diags.errorCount() == 3);
}

TEST_CASE("sorted() orders diagnostics by file and position and removes duplicates", "[diag]") {
  kc::Compilation c;
  uint32_t a = c.sources.add("a.kcontract", "line one\nline two\nline three\n");
  uint32_t b = c.sources.add("b.kcontract", "other\n");
  c.diags.report(kc::DiagCode::BadCharacter, rangeAt(c.sources, b, 1, 1, 2), "in b");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 3, 2, 4), "third line");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 6, 9), "first line");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 3, 2, 4), "third line");  // duplicate
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 2, 1, 5), "second line");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 6, 9), "first line");  // duplicate
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 6, 9), "same place, other text");

  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 5);
  CHECK(ds[0].message == "first line");
  CHECK(ds[1].message == "same place, other text");  // stable: reported order at equal positions
  CHECK(ds[2].message == "second line");
  CHECK(ds[3].message == "third line");
  CHECK(ds[4].message == "in b");
  CHECK(ds[4].range.file == b);

  std::ostringstream out;
  c.diags.print(out, false);
  CHECK(out.str() ==
        "a.kcontract:1:6: error[KC1003]: first line\n"
        "line one\n"
        "     ^~~\n"
        "a.kcontract:1:6: error[KC1003]: same place, other text\n"
        "line one\n"
        "     ^~~\n"
        "a.kcontract:2:1: error[KC1003]: second line\n"
        "line two\n"
        "^~~~\n"
        "a.kcontract:3:2: error[KC1003]: third line\n"
        "line three\n"
        " ^~\n"
        "b.kcontract:1:1: error[KC1001]: in b\n"
        "other\n"
        "^\n");
}

// Duplicates separated by a different diagnostic at the same position survive sorted():
TEST_CASE("sorted() removes duplicates that are not neighbours at the same position", "[diag]") {
  kc::Compilation c;
  uint32_t a = c.sources.add("a.kcontract", "abc\n");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 1, 2), "x");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 1, 2), "y");
  c.diags.report(kc::DiagCode::UnexpectedToken, rangeAt(c.sources, a, 1, 1, 2), "x");
  CHECK(c.diags.sorted().size() == 2);
}

TEST_CASE("a diagnostic without a file prints with the program name and no snippet", "[diag]") {
  kc::Compilation c;
  bool ok = kc::compile(c, {"/nonexistent/dir/none.kcontract"}, kc::Stage::Parse);
  CHECK(!ok);
  REQUIRE(c.files.size() == 1);
  CHECK(!c.files[0]);
  CHECK(c.fileIds[0] == 0);
  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == kc::DiagCode::FileUnreadable);
  std::string text = printed(c);
  CHECK(text.rfind("kcontract: error[KC0001]: ", 0) == 0);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
}

TEST_CASE("warnings are warnings by default and errors with warnings-as-errors", "[diag]") {
  const std::string text = "kcontract 1\nimport std.a\nimport std.a\ncontract c@1 {\n  pre {}\n}\n";
  {
    kc::Compilation c;
    CHECK(kc::compileText(c, "w.kcontract", text, kc::Stage::Parse));
    CHECK(c.files[0]);
    CHECK(!c.diags.hasErrors());
    CHECK(c.diags.warningCount() == 2);
    auto ds = c.diags.sorted();
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].code == kc::DiagCode::DuplicateImport);
    CHECK(ds[0].severity == kc::Severity::Warning);
    CHECK(ds[1].code == kc::DiagCode::EmptyBlock);
    CHECK(printed(c).find("w.kcontract:3:1: warning[KC1502]: module 'std.a' is already imported\n") == 0);
  }
  {
    kc::Compilation c;
    c.diags.setWarningsAsErrors(true);
    CHECK(!kc::compileText(c, "w.kcontract", text, kc::Stage::Parse));
    CHECK(!c.files[0]);  // the stage failed
    CHECK(c.diags.hasErrors());
    CHECK(c.diags.errorCount() == 2);
    CHECK(c.diags.warningCount() == 0);
    auto ds = c.diags.sorted();
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].severity == kc::Severity::Error);
    CHECK(ds[0].code == kc::DiagCode::DuplicateImport);  // the code keeps its identity
    CHECK(printed(c).find("w.kcontract:3:1: error[KC1502]: module 'std.a' is already imported\n") == 0);
  }
}

TEST_CASE("each syntax error kind is reported with its catalogue code", "[diag]") {
  struct Case {
    const char* text;
    kc::DiagCode code;
    uint32_t line, column;
  };
  const Case cases[] = {
      {"kcontract 1\ncontract a@1 { pre { a # b } }\n", kc::DiagCode::BadCharacter, 2, 24},
      {"kcontract 1\ncontract a@1 \"open {\n}\n", kc::DiagCode::UnterminatedString, 2, 14},
      {"kcontract 1\ncontract a@1 { pre { (a } }\n", kc::DiagCode::UnexpectedToken, 2, 25},
      {"kcontract 2\n", kc::DiagCode::UnsupportedVersion, 1, 11},
      {"kcontract 1\nimport std. ops\n", kc::DiagCode::SpaceInName, 2, 8},
      {"kcontract 1\ncontract a@ 1 {}\n", kc::DiagCode::SpaceInName, 2, 10},
      {"kcontract 1\ncontract a@99999999999 {}\n", kc::DiagCode::BadNumber, 2, 12},
      {"kcontract 1\ncontract a@1 { pre { 99999999999999999999 } }\n", kc::DiagCode::BadNumber, 2, 22},
      {"import a\n", kc::DiagCode::MissingHeader, 1, 1},
      {"kcontract 1\n\xff\n", kc::DiagCode::InvalidEncoding, 2, 1},
  };
  for (const auto& k : cases) {
    INFO(k.text);
    kc::Compilation c;
    CHECK(!kc::compileText(c, "t.kcontract", k.text, kc::Stage::Parse));
    CHECK(!c.files[0]);
    auto ds = c.diags.sorted();
    INFO(printed(c));
    REQUIRE(!ds.empty());
    CHECK(ds[0].code == k.code);
    CHECK(ds[0].severity == kc::Severity::Error);
    CHECK(ds[0].range.begin.line == k.line);
    CHECK(ds[0].range.begin.column == k.column);
  }
}

TEST_CASE("deep nesting is reported, never a crash", "[diag]") {
  std::string deep(5000, '(');
  deep += "a" + std::string(5000, ')');
  kc::Compilation c;
  CHECK(!kc::compileText(c, "d.kcontract", "kcontract 1\ncontract a@1 { pre { " + deep + " } }\n", kc::Stage::Parse));
  auto ds = c.diags.sorted();
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == kc::DiagCode::TooDeep);
}

TEST_CASE("the catalogue has unique codes and names with the documented ranges", "[diag]") {
  std::set<int> numbers;
  std::set<std::string> names;
  for (kc::DiagCode code : kc::allDiagCodes()) {
    const kc::DiagInfo& info = kc::diagInfo(code);
    CHECK(info.number == static_cast<int>(code));
    CHECK(numbers.insert(info.number).second);
    CHECK(names.insert(info.name).second);
    CHECK(kc::diagCodeString(code).size() == 6);
    if (info.number >= 1500 && info.number < 1600) CHECK(info.severity == kc::Severity::Warning);
  }
  CHECK(kc::diagCodeString(kc::DiagCode::UnexpectedToken) == "KC1003");
  CHECK(kc::diagCodeString(kc::DiagCode::FileUnreadable) == "KC0001");
}
