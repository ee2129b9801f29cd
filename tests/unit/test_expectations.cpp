// What a suite entry expects of its kernel (`expect:`), and what a job got: FAIL, ERROR,
// CRASH and TIMEOUT are each their own outcome; a pinned signature must be named.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "checker/report/summary.h"
#include "checker/suite.h"

using namespace kc;
using report::CaseResult;
using report::Verdict;

namespace {

CaseResult withVerdict(Verdict v, std::vector<std::string> signatures = {}) {
  CaseResult r;
  r.verdict = v;
  r.signatures = std::move(signatures);
  return r;
}

std::string writeSuite(const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / "kc_test_expectations";
  std::filesystem::create_directories(dir);
  auto path = dir / "suite.yaml";
  std::ofstream(path) << text;
  return path.string();
}

std::string suiteError(const std::string& text) {
  try {
    check::loadSuite(writeSuite(text));
  } catch (const check::SuiteError& e) {
    std::string m = e.what();
    return m.substr(m.find("suite.yaml:"));
  }
  return "";
}

}  // namespace

TEST_CASE("expectations: each way a job ends is its own outcome", "[expect]") {
  using report::jobOutcome;
  CHECK(jobOutcome({withVerdict(Verdict::Pass), withVerdict(Verdict::Fail)}) == "fail");
  CHECK(jobOutcome({withVerdict(Verdict::Pass), withVerdict(Verdict::Crash)}) == "crash");
  CHECK(jobOutcome({withVerdict(Verdict::Timeout), withVerdict(Verdict::Error)}) == "timeout");
  CHECK(jobOutcome({withVerdict(Verdict::Pass), withVerdict(Verdict::Error)}) == "error");
  CHECK(jobOutcome({withVerdict(Verdict::Pass), withVerdict(Verdict::Skipped)}) == "pass");
  CHECK(jobOutcome({withVerdict(Verdict::Mistrusted), withVerdict(Verdict::Skipped)}) == "mistrusted");
  CHECK(jobOutcome({withVerdict(Verdict::Skipped)}) == "skipped");
  CHECK(jobOutcome({}) == "skipped");
  CHECK(jobOutcome({}, true) == "error");  // the kernel could not be built: no case ran
}

TEST_CASE("expectations: expect fail is met by a FAIL only, and a pinned signature must be named", "[expect]") {
  report::ExpectationTally t;
  t.add("crashes", report::ExpectedOutcome{"fail", ""}, {withVerdict(Verdict::Crash)});
  t.add("not built", report::ExpectedOutcome{"fail", ""}, {}, true);
  t.add("not built, expected", report::ExpectedOutcome{"error", ""}, {}, true);
  t.add("k tail", report::ExpectedOutcome{"fail", "k-tail"}, {withVerdict(Verdict::Fail, {"k-tail", "overflow"})});
  t.add("wrong cause", report::ExpectedOutcome{"fail", "k-tail"}, {withVerdict(Verdict::Fail, {"overflow"})});
  t.add("no expectation", std::nullopt, {withVerdict(Verdict::Fail)});
  REQUIRE(t.expected() == 5);
  CHECK_FALSE(t.jobs[0].ok());
  CHECK(t.jobs[0].got == "crash");
  CHECK_FALSE(t.jobs[1].ok());
  CHECK(t.jobs[1].got == "error");
  CHECK(t.jobs[2].ok());
  CHECK(t.jobs[3].ok());
  CHECK_FALSE(t.jobs[4].ok());
  CHECK(t.jobs[4].expected.text() == "fail with k-tail");
  CHECK(t.jobs[4].gotText() == "fail with overflow");
  CHECK(t.asExpected() == 2);
  CHECK_FALSE(t.allAsExpected());
}

TEST_CASE("expectations: a suite's expect is a verdict or {verdict, signature}", "[expect][suite]") {
  check::Suite s = check::loadSuite(writeSuite(R"(kcontract-suite: 1
kernels:
  - {impl: a.c, contract: c.kcontract, expect: error}
  - {impl: b.c, contract: c.kcontract, expect: {verdict: fail, signature: k-tail}}
  - {impl: c.c, contract: c.kcontract}
)"));
  REQUIRE(s.kernels.size() == 3);
  REQUIRE(s.kernels[0].expect);
  CHECK(s.kernels[0].expect->verdict == "error");
  CHECK(s.kernels[0].expect->signature.empty());
  REQUIRE(s.kernels[1].expect);
  CHECK(s.kernels[1].expect->verdict == "fail");
  CHECK(s.kernels[1].expect->signature == "k-tail");
  CHECK_FALSE(s.kernels[2].expect);

  CHECK(suiteError("kcontract-suite: 1\nkernels:\n  - {impl: a.c, contract: c.kcontract, expect: failed}\n") ==
        "suite.yaml:3:48: 'expect' is pass, fail, error, crash, timeout, mistrusted or skipped; got 'failed'");
  CHECK(suiteError("kcontract-suite: 1\nkernels:\n  - {impl: a.c, contract: c.kcontract, expect: {verdict: pass, "
                   "signature: k-tail}}\n") ==
        "suite.yaml:3:75: a signature is expected only of a kernel that is expected to fail or crash");
  CHECK(suiteError("kcontract-suite: 1\nkernels:\n  - {impl: a.c, contract: c.kcontract, expect: {signature: k-tail}}\n") ==
        "suite.yaml:3:48: 'expect' needs 'verdict' (pass, fail, error, crash, timeout, mistrusted or skipped)");
}

TEST_CASE("expectations: with a diagnosis, a pinned signature is its primary cause", "[expect][diagnosis]") {
  report::Diagnosis d;
  d.failing = 1;
  d.causes = {{"overflow", "seen", {1}}, {"k-tail", "re-run", {2}}};
  report::ExpectationTally t;
  std::vector<CaseResult> results = {withVerdict(Verdict::Fail, {"k-tail", "overflow"})};
  t.add("second cause", report::ExpectedOutcome{"fail", "k-tail"}, results, false, &d);
  t.add("primary cause", report::ExpectedOutcome{"fail", "overflow"}, results, false, &d);
  report::Diagnosis none;
  none.failing = 1;  // failures, and no cause with evidence
  t.add("no evidence", report::ExpectedOutcome{"fail", "k-tail"}, results, false, &none);
  CHECK_FALSE(t.jobs[0].ok());
  CHECK(t.jobs[0].gotText() == "fail with overflow, k-tail");
  CHECK(t.jobs[1].ok());
  CHECK_FALSE(t.jobs[2].ok());
  CHECK(t.jobs[2].gotText() == "fail with unclassified");
}
