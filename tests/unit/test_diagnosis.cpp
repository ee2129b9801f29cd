// The diagnosis without re-runs: the report text, the constant factor a missing scale leaves
// in the worst cells, and the evidence rules that need only the judged cases (large index
// only, `fails when` refuted, tail names only from re-runs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "compiled_contract.h"
#include "checker/diagnose/diagnose.h"
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
  CHECK_FALSE(diagnose::constantFactor(withCells({{0, 1}, {0, -3}, {0, 0.25}})));      // +0 for -3: never computed, not a scale
  auto zero = diagnose::constantFactor(withCells({{0, 1}, {-0.0, -3}, {0, 0.25}}));     // zeros with the exact sign: times 0
  REQUIRE(zero);
  CHECK(*zero == 0);
  // Near 1 (sqrt(256/257), Bessel's correction) when the ratios agree to a hundredth of
  // the factor's distance from 1; not within 1e-4 of 1, where rounding looks the same.
  auto near = diagnose::constantFactor(withCells({{1.01, 1}, {-3.03, -3}, {0.2525, 0.25}}));
  REQUIRE(near);
  CHECK(*near == Approx(1.01));
  CHECK_FALSE(diagnose::constantFactor(withCells({{1.01, 1}, {-3.036, -3}, {0.2525, 0.25}})));
  CHECK_FALSE(diagnose::constantFactor(withCells({{1.00001, 1}, {-3.00003, -3}, {0.2500025, 0.25}})));
  CHECK_FALSE(diagnose::constantFactor(withCells({{2, 1}, {4, 2}}, 100)));  // two cells of a hundred wrong say nothing
  CHECK(diagnose::constantFactor(withCells({{2, 1}, {4, 2}})));             // two of two: every wrong cell
}

namespace {

report::CaseResult caseResult(size_t number, report::Verdict v, std::vector<std::string> signatures = {},
                              std::vector<std::pair<std::string, bool>> conditions = {}) {
  report::CaseResult r;
  r.number = number;
  r.verdict = v;
  r.signatures = std::move(signatures);
  r.conditions = std::move(conditions);
  return r;
}

plan::Case planned(size_t number, int largeIndex = 0) {
  plan::Case c;
  c.number = number;
  c.largeIndex = largeIndex;
  return c;
}

report::Diagnosis diagnoseWithoutReRuns(const sema::ContractInfo& ct, const plan::Plan& p, const std::vector<report::CaseResult>& results) {
  diagnose::DiagnoseInput in;
  in.contract = &ct;
  in.plan = &p;
  in.results = &results;
  return diagnose::diagnose(in);
}

}  // namespace

TEST_CASE("diagnosis: failing only on the large-index cases names index-overflow before unwritten-cells", "[diagnosis]") {
  sema::ContractInfo ct;
  plan::Plan p;
  p.cases = {planned(1), planned(2), planned(3, 31), planned(4, 32)};
  using V = report::Verdict;
  std::vector<report::CaseResult> results = {caseResult(1, V::Pass), caseResult(2, V::Pass),
                                             caseResult(3, V::Fail, {"unwritten-cells"}), caseResult(4, V::Fail, {"unwritten-cells"})};
  report::Diagnosis d = diagnoseWithoutReRuns(ct, p, results);
  REQUIRE_FALSE(d.causes.empty());
  CHECK(d.causes.front().name == "index-overflow");
  CHECK(d.causes.front().evidence ==
        "fails only past 2^31 elements: every failing case is a large-index case, and 2 smaller cases pass (a 32-bit index or count wraps)");
  // A smaller case failing too: the size is not what it needs.
  results[1] = caseResult(2, V::Fail, {"unwritten-cells"});
  d = diagnoseWithoutReRuns(ct, p, results);
  CHECK(d.names() == std::vector<std::string>{"unwritten-cells"});
}

TEST_CASE("diagnosis: `fails when C` is not named when a case without C fails and nothing explains it", "[diagnosis]") {
  sema::ContractInfo ct;
  sema::SignatureInfo sig;
  sig.name = "wide-rows";
  sema::SignatureClause clause;
  clause.kind = ast::SignatureClauseKind::FailsWhen;
  sig.clauses.push_back(std::move(clause));
  ct.signatures.push_back(std::move(sig));
  plan::Plan p;
  p.cases = {planned(1), planned(2)};
  using V = report::Verdict;
  std::vector<report::CaseResult> results = {caseResult(1, V::Fail, {"wide-rows"}, {{"wide-rows", true}}),
                                             caseResult(2, V::Fail, {}, {{"wide-rows", false}})};
  report::Diagnosis d = diagnoseWithoutReRuns(ct, p, results);
  CHECK(d.names() == std::vector<std::string>{"unclassified"});
  REQUIRE(d.notNamed.size() == 1);
  CHECK(d.notNamed[0] == "wide-rows: its condition holds on #1, but #2 failed without it and no cause found explains them");
  // Every failing case has C: named.
  results[1] = caseResult(2, V::Fail, {"wide-rows"}, {{"wide-rows", true}});
  CHECK(diagnoseWithoutReRuns(ct, p, results).names() == std::vector<std::string>{"wide-rows"});
}

TEST_CASE("diagnosis: `fails only when C` is not named when C holds on so many cases that chance explains the failures", "[diagnosis]") {
  sema::ContractInfo ct;
  sema::SignatureInfo sig;
  sig.name = "zero-padding-ignored";
  sema::SignatureClause clause;
  clause.kind = ast::SignatureClauseKind::FailsOnlyWhen;
  sig.clauses.push_back(std::move(clause));
  ct.signatures.push_back(std::move(sig));
  plan::Plan p;
  using V = report::Verdict;
  // Padding on 8 of 10 cases, one of them fails: 0.8 is what chance gives.
  std::vector<report::CaseResult> results;
  for (size_t n = 1; n <= 10; ++n) {
    p.cases.push_back(planned(n));
    bool padded = n <= 8;
    results.push_back(n == 1 ? caseResult(n, V::Fail, {"zero-padding-ignored"}, {{"zero-padding-ignored", true}})
                             : caseResult(n, V::Pass, {}, {{"zero-padding-ignored", padded}}));
  }
  report::Diagnosis d = diagnoseWithoutReRuns(ct, p, results);
  CHECK(d.names() == std::vector<std::string>{"unclassified"});
  REQUIRE(d.notNamed.size() == 1);
  CHECK(d.notNamed[0] == "zero-padding-ignored: its condition holds on 8 of the 10 cases run, so that #1 meet it is what chance gives (0.8)");
  // Three of the eight padded cases fail: 0.8^3 = 0.51, still chance ...
  for (size_t n = 2; n <= 3; ++n) results[n - 1] = caseResult(n, V::Fail, {"zero-padding-ignored"}, {{"zero-padding-ignored", true}});
  CHECK(diagnoseWithoutReRuns(ct, p, results).names() == std::vector<std::string>{"unclassified"});
  // ... but with padding on 3 of 10 cases and those 3 failing (0.3^3 = 0.027), C picks them out.
  for (size_t n = 4; n <= 10; ++n) results[n - 1] = caseResult(n, V::Pass, {}, {{"zero-padding-ignored", false}});
  CHECK(diagnoseWithoutReRuns(ct, p, results).names() == std::vector<std::string>{"zero-padding-ignored"});
  // Evaluated on failing cases alone (a condition on values), it says nothing about its share: named.
  std::vector<report::CaseResult> failingOnly = {caseResult(1, V::Fail, {"zero-padding-ignored"}, {{"zero-padding-ignored", true}}),
                                                 caseResult(2, V::Pass)};
  CHECK(diagnoseWithoutReRuns(ct, p, failingOnly).names() == std::vector<std::string>{"zero-padding-ignored"});
}

TEST_CASE("diagnosis: a tail name from a contract's cell pattern alone is not named", "[diagnosis]") {
  sema::ContractInfo ct;
  plan::Plan p;
  p.cases = {planned(1)};
  std::vector<report::CaseResult> results = {caseResult(1, report::Verdict::Fail, {"tail-unwritten", "unwritten-cells"})};
  report::Diagnosis d = diagnoseWithoutReRuns(ct, p, results);
  CHECK(d.names() == std::vector<std::string>{"unwritten-cells"});
  CHECK(std::find(d.notNamed.begin(), d.notNamed.end(), "tail-unwritten: only a re-run shows it, and none did") != d.notNamed.end());
}

TEST_CASE("diagnosis: re-runs refused for the spent budget are one line that counts them", "[diagnosis]") {
  const std::string spent = std::string(" did not run (") + diagnose::kBudgetSpent + ")";
  std::vector<std::string> probes = {"#3 in contiguous views: fails too", "#3 with H varied" + spent,
                                     "#3 with its inputs scaled: none passes", "#3 with W varied" + spent, "#3 with N varied" + spent};
  diagnose::foldBudgetSpent(probes);
  CHECK(probes == std::vector<std::string>{
                      "#3 in contiguous views: fails too",
                      "#3 with H varied did not run (the diagnosis's re-run budget is spent; 2 more re-runs were not made)",
                      "#3 with its inputs scaled: none passes"});
  // One such line stays as it is.
  std::vector<std::string> one = {"#1 with H varied" + spent};
  diagnose::foldBudgetSpent(one);
  CHECK(one == std::vector<std::string>{"#1 with H varied" + spent});
}

namespace {

const char* kSums = R"(kcontract 1

kernel k(x: f32[R, H]) -> (s: f32[R], c: f32[R, H], f: f32[R, H])
  where R in 1..4096, H in 1..4096

contract t.sums@1 "row sums of |x|, prefix sums, the whole tensor's sum of squares" {
  scope {
    kernel k
  }
  oracle f64 {
    s[r] = sum(h, |x[r, h]|)
    c[r, h] = sum(j in 0..h, x[r, j])
    q[r] = sum(h, x[r, h]^2)
    f[r, h] = x[r, h] + sum(k, q[k])
  }
  tolerance {
    tol[r] = 0 * s*[r]
  }
  post {
    forall r: s[r] == s*[r]
  }
}
)";

}  // namespace

TEST_CASE("diagnosis: how far a sum of inputs in -1..1 can reach, for the exact-input re-run", "[diagnosis]") {
  auto p = kc::test::compileContract(kSums);
  plan::Case c;
  c.dims = {{"R", 3}, {"H", 300}};
  // The whole tensor's sum of squares: 3 rows of 300 ones.
  CHECK(diagnose::largestPartialSum(*p->ct, c) == 900);
  c.dims = {{"R", 1}, {"H", 200}};
  CHECK(diagnose::largestPartialSum(*p->ct, c) == 200);
  CHECK(diagnose::largestPartialSum(*p->ct, c) <= diagnose::kExactSumReach);
  // Halved, the dim that lowers the reach most each time, until no sum passes 256.
  c.dims = {{"R", 3}, {"H", 300}};
  auto small = diagnose::withinExactReach(*p->ct, c);
  REQUIRE(small);
  CHECK(small->dims == std::vector<std::pair<std::string, int64_t>>{{"R", 3}, {"H", 75}});
}

TEST_CASE("diagnosis: a dim's factor names missing-scale only when most cases with a factor show one", "[diagnosis]") {
  sema::ContractInfo ct;
  plan::Plan p;
  p.cases = {planned(1), planned(2)};
  // Case 1's factor is sqrt(30 / 31) (H = 31); case 2's, 0.9 at H = 64, is no dim's: a wrong
  // norm, which lands near a dim's factor by chance.
  const double f1 = std::sqrt(30.0 / 31.0);
  report::CaseResult a = withCells({{2 * f1, 2}, {3 * f1, 3}, {-1 * f1, -1}});
  a.number = 1;
  a.dims = {{"H", 31}};
  report::CaseResult b = withCells({{0.9 * 2, 2}, {0.9 * 5, 5}, {0.9 * -4, -4}});
  b.number = 2;
  b.dims = {{"H", 64}};
  CHECK(diagnoseWithoutReRuns(ct, p, {a, b}).names() == std::vector<std::string>{"unclassified"});
  // Case 2's factor 1 / sqrt(64): a scale missing in both.
  b = withCells({{0.125 * 2, 2}, {0.125 * 5, 5}, {0.125 * -4, -4}});
  b.number = 2;
  b.dims = {{"H", 64}};
  CHECK(diagnoseWithoutReRuns(ct, p, {a, b}).names() == std::vector<std::string>{"missing-scale"});
}
