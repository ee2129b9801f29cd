// The diagnosis's pieces that need no re-run: the report text, and the constant factor a
// missing scale leaves in the worst cells.
#include <catch2/catch.hpp>

#include "checker/diagnose/probes.h"
#include "checker/report/diagnosis.h"

using namespace kc;

namespace {

report::CaseResult withCells(std::vector<std::pair<double, double>> gotExpected, int64_t mismatched = 0) {
  report::CaseResult r;
  r.verdict = report::Verdict::Fail;
  for (const auto& [got, expected] : gotExpected) {
    report::WorstCell w;
    w.got = got;
    w.expected = expected;
    r.worst.push_back(w);
  }
  r.mismatched = mismatched ? mismatched : static_cast<int64_t>(gotExpected.size());
  return r;
}

}  // namespace

TEST_CASE("diagnosis: the text names the primary cause, the others, the re-runs and what was not named", "[diagnosis]") {
  report::Diagnosis d;
  d.kernel = "k.c:kc_softmax";
  d.failing = 3;
  d.causes = {{"tail-over-read", "reads outside its views", {4, 7}}};
  d.unexplained = {9};
  d.probes = {"#4 with other bytes outside the views: the outputs changed"};
  d.notNamed = {"overflow: every case it explains is explained by tail-over-read"};
  CHECK(report::diagnosisText(d) ==
        "diagnosis: k.c:kc_softmax: tail-over-read, explains 2 of 3 failing cases\n"
        "    cause: tail-over-read (#4, #7): reads outside its views\n"
        "    unexplained: #9\n"
        "    re-run: #4 with other bytes outside the views: the outputs changed\n"
        "    not named: overflow: every case it explains is explained by tail-over-read\n");
  CHECK(d.names() == std::vector<std::string>{"tail-over-read"});
  report::Diagnosis none;
  none.failing = 2;
  CHECK(none.names() == std::vector<std::string>{"unclassified"});
  CHECK(report::diagnosisText(none).find("unclassified (no cause has evidence over the 2 failing cases)") != std::string::npos);
  CHECK(report::diagnosisText(report::Diagnosis{}).empty());
}

TEST_CASE("diagnosis: a constant factor over the wrong cells, and none otherwise", "[diagnosis]") {
  auto f = diagnose::constantFactor(withCells({{2, 1}, {-6, -3}, {0.5, 0.25}}));
  REQUIRE(f);
  CHECK(*f == Approx(2));
  CHECK_FALSE(diagnose::constantFactor(withCells({{2, 1}, {-3, -3}, {0.5, 0.25}})));   // not one factor
  CHECK_FALSE(diagnose::constantFactor(withCells({{0, 1}, {0, -3}, {0, 0.25}})));      // zeros: never computed, not a scale
  CHECK_FALSE(diagnose::constantFactor(withCells({{1.01, 1}, {-3.03, -3}, {0.2525, 0.25}})));  // within 5% of 1
  CHECK_FALSE(diagnose::constantFactor(withCells({{2, 1}, {4, 2}}, 100)));  // two cells of a hundred wrong say nothing
  CHECK(diagnose::constantFactor(withCells({{2, 1}, {4, 2}})));             // two of two: every wrong cell
}
