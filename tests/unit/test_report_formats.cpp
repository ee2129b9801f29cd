// The report format registry (checker/report/format.h, formats.def): the built-in formats,
// and a format registered here, found by name, listed, and written through ReportWriter
// the way `kcontract check --format NAME [--out FILE]` writes it.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/report/format.h"
#include "checker/report/jsonl.h"

using namespace kc::report;
namespace fs = std::filesystem;

namespace {

CaseResult someCase(const std::string& id, Verdict v) {
  CaseResult r;
  r.contract = "acme.relu@1";
  r.kernel = "examples/relu/relu.c:kc_relu";
  r.backend = "host";
  r.caseId = id;
  r.verdict = v;
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("kc_test_report_formats_" + std::to_string(::getpid()) + "_" + name);
  fs::remove(p);
  return p;
}

// A format of the test's own: one CSV line per case, and a count at the end.
ReportFormat csvFormat() {
  ReportFormat f;
  f.name = "csv";
  f.description = "comma-separated values: case id and verdict per line";
  f.caseRecord = [](const CaseResult& r) { return r.caseId + "," + std::string(verdictName(r.verdict)); };
  f.document = [](const std::vector<CaseResult>& all, const FormatContext& c) {
    return "# " + std::to_string(all.size()) + " cases, kcontract " + c.toolVersion + "\n";
  };
  return f;
}

// Registers a format for the length of one test.
struct Registered {
  explicit Registered(ReportFormat f) : name(f.name) { registerReportFormat(std::move(f)); }
  ~Registered() { unregisterReportFormat(name); }
  std::string name;
};

}  // namespace

TEST_CASE("report formats: the built-in ones, in formats.def's order", "[report][format]") {
  const auto& all = reportFormats();
  REQUIRE(all.size() >= 4);
  CHECK(all[0].name == "text");
  CHECK(all[1].name == "jsonl");
  CHECK(all[2].name == "junit");
  CHECK(all[3].name == "sarif");
  CHECK(defaultReportFormat().name == "text");
  // The usage error and the --help line of `kcontract check`, byte for byte.
  CHECK(reportFormatList() == "text, jsonl, junit, sarif or html");
  CHECK(reportFormatList(true) == "text (default), jsonl, junit, sarif or html");
  for (const auto& f : all) CHECK(!f.description.empty());

  const ReportFormat* text = findReportFormat("text");
  REQUIRE(text);
  CHECK_FALSE(text->machine);
  CHECK_FALSE(text->caseRecord);
  CHECK_FALSE(text->document);
  const ReportFormat* jsonl = findReportFormat("jsonl");
  REQUIRE(jsonl);
  CHECK(jsonl->machine);
  CHECK(jsonl->caseRecord);
  CHECK_FALSE(jsonl->document);
  CHECK(&resumeFormat() == jsonl);
  for (const char* doc : {"junit", "sarif", "html"}) {
    const ReportFormat* f = findReportFormat(doc);
    REQUIRE(f);
    CHECK(f->machine);
    CHECK(f->document);
    CHECK_FALSE(f->caseRecord);
    CHECK_FALSE(f->parseRecord);
  }
  CHECK(findReportFormat("csv") == nullptr);
  CHECK(findReportFormat("") == nullptr);
}

TEST_CASE("report formats: jsonl records read back through the registry", "[report][format]") {
  const ReportFormat& f = resumeFormat();
  CaseResult r = someCase("acme.relu@1#4", Verdict::Pass);
  std::string error;
  auto back = f.parseRecord(f.caseRecord(r), error);
  REQUIRE(back);
  CHECK(resumeKey(*back) == resumeKey(r));
  CHECK_FALSE(f.parseRecord("{\"case\":", error));
}

TEST_CASE("report formats: a format registered in the test is found, listed and used", "[report][format]") {
  Registered reg(csvFormat());
  const ReportFormat* f = findReportFormat("csv");
  REQUIRE(f);
  CHECK(f->machine);
  CHECK(reportFormatList() == "text, jsonl, junit, sarif, html or csv");
  CHECK(reportFormatList(true) == "text (default), jsonl, junit, sarif, html or csv");
  CHECK_THROWS_AS(registerReportFormat(csvFormat()), std::invalid_argument);  // the name is taken
  CHECK(&resumeFormat() == findReportFormat("jsonl"));  // csv cannot be read back

  std::vector<CaseResult> results = {someCase("acme.relu@1#0", Verdict::Pass), someCase("acme.relu@1#1", Verdict::Fail)};

  SECTION("without --out: stdout holds the format alone") {
    std::ostringstream console;
    ReportWriter w(*f, "", console);
    std::string error;
    REQUIRE(w.open(error));
    CHECK_FALSE(w.wantsText());
    for (const auto& r : results) w.add(r);
    REQUIRE(w.finish(results, {"0.1.0", "", "", {}}, error));
    CHECK(console.str() == "acme.relu@1#0,PASS\nacme.relu@1#1,FAIL\n# 2 cases, kcontract 0.1.0\n");
  }
  SECTION("with --out and --resume: records are appended to the file, the document replaces it at the end") {
    fs::path out = scratch("out.csv");
    std::ostringstream console;
    {
      std::ofstream(out) << "earlier\n";
      ReportWriter w(*f, out.string(), console, OutMode::Append);
      std::string error;
      REQUIRE(w.open(error));
      CHECK(w.wantsText());  // the text report keeps stdout
      w.add(results[0]);
      w.add(results[1]);
      CHECK(slurp(out) == "earlier\nacme.relu@1#0,PASS\nacme.relu@1#1,FAIL\n");  // flushed per case
      REQUIRE(w.finish(results, {"0.1.0", "", "", {}}, error));
    }
    CHECK(slurp(out) == "# 2 cases, kcontract 0.1.0\n");
    CHECK_FALSE(fs::exists(out.string() + ".tmp"));
    CHECK(console.str().empty());
    fs::remove(out);
  }
  SECTION("with --out on a file that exists: refused, naming both choices; --replace writes it afresh") {
    fs::path out = scratch("exists.csv");
    std::ofstream(out) << "earlier\n";
    std::ostringstream console;
    std::string error;
    {
      ReportWriter w(*f, out.string(), console);  // OutMode::Create
      CHECK_FALSE(w.open(error));
      CHECK(error == "'" + out.string() + "' exists already; add --replace to overwrite it");
    }
    {
      ReportWriter w(*f, out.string(), console, OutMode::Replace);
      REQUIRE(w.open(error));
      w.add(results[0]);
      CHECK(slurp(out) == "acme.relu@1#0,PASS\n");
    }
    {
      // A resumable format names --resume too; a document-only format is refused the same way.
      ReportWriter w(*findReportFormat("jsonl"), out.string(), console);
      CHECK_FALSE(w.open(error));
      CHECK(error == "'" + out.string() + "' exists already; add --replace to overwrite it, or --resume " + out.string() +
                         " to keep its results and append to it");
      ReportWriter sarif(*findReportFormat("sarif"), out.string(), console);
      CHECK_FALSE(sarif.open(error));
      CHECK(error == "'" + out.string() + "' exists already; add --replace to overwrite it");
    }
    fs::remove(out);
  }
  SECTION("an --out that cannot be written is the usage error's text") {
    std::string bad = (scratch("missing_dir") / "out.csv").string();
    std::ostringstream console;
    ReportWriter w(*f, bad, console);
    std::string error;
    CHECK_FALSE(w.open(error));
    CHECK(error == "cannot write '" + bad + "'");
  }
}

TEST_CASE("report formats: unregistering leaves the built-in ones", "[report][format]") {
  {
    Registered reg(csvFormat());
    CHECK(findReportFormat("csv"));
  }
  CHECK(findReportFormat("csv") == nullptr);
  CHECK_FALSE(unregisterReportFormat("jsonl"));
  CHECK(findReportFormat("jsonl"));
  CHECK(reportFormatList() == "text, jsonl, junit, sarif or html");
}

TEST_CASE("report formats: the text format writes nothing itself", "[report][format]") {
  std::ostringstream console;
  ReportWriter w(defaultReportFormat(), "", console);
  std::string error;
  REQUIRE(w.open(error));
  CHECK(w.wantsText());
  std::vector<CaseResult> results = {someCase("acme.relu@1#0", Verdict::Pass)};
  w.add(results[0]);
  REQUIRE(w.finish(results, {"0.1.0", "", "", {}}, error));
  CHECK(console.str().empty());
}

TEST_CASE("report formats: the text format with --out sends the text report to the file", "[report][format]") {
  fs::path out = scratch("report.txt");
  std::ostringstream console;
  {
    ReportWriter w(defaultReportFormat(), out.string(), console);
    std::string error;
    REQUIRE(w.open(error));
    CHECK(w.wantsText());
    CHECK_FALSE(w.textToConsole());
    w.text() << "a case line\n";
    std::vector<CaseResult> results = {someCase("acme.relu@1#0", Verdict::Pass)};
    REQUIRE(w.finish(results, {"0.1.0", "", "", {}}, error));
  }
  CHECK(console.str().empty());
  CHECK(slurp(out) == "a case line\n");
  // Create refuses a file that exists, as for every format.
  ReportWriter again(defaultReportFormat(), out.string(), console);
  std::string error;
  CHECK_FALSE(again.open(error));
  CHECK(error == "'" + out.string() + "' exists already; add --replace to overwrite it");
}
