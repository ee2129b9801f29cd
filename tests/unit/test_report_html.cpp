// The HTML report (checker/report/html.cpp, html_plots.cpp): a self-contained page whose
// text from kernels is escaped, a verdict map over the dims with the most values, and the
// error ÷ tolerance plot with its floor and ceiling.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "checker/report/format.h"
#include "checker/report/html_plots.h"

using namespace kc::report;

namespace {

CaseResult caseAt(size_t number, int64_t r, int64_t h, Verdict v, double ratio) {
  CaseResult c;
  c.contract = "acme.softmax.rows@1";
  c.kernel = "softmax.c:kc_softmax";
  c.backend = "host";
  c.caseId = "acme.softmax.rows@1#" + std::to_string(number);
  c.number = number;
  c.dims = {{"R", r}, {"H", h}};
  c.dtypes = {{"T", "f32"}};
  c.layouts = {{"x", "padded(7)"}, {"y", "contiguous"}};
  c.verdict = v;
  c.compared = r * h;
  c.toleranceUsed = ratio;
  return c;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

std::string page(const std::vector<CaseResult>& results, std::vector<Diagnosis> diagnoses = {}) {
  const ReportFormat* html = findReportFormat("html");
  REQUIRE(html);
  return html->document(results, {"0.1.0", "", "/opt/kc", std::move(diagnoses)});
}

}  // namespace

TEST_CASE("the HTML report escapes what a kernel printed and named, and fetches nothing") {
  CaseResult bad = caseAt(3, 1, 33, Verdict::Crash, std::numeric_limits<double>::quiet_NaN());
  bad.compared = 0;
  bad.name = "evil\" onmouseover=\"alert(1)";
  bad.kernelOutput = "</pre><script>alert('pwned')</script><img src=x>";
  bad.reason = "<b>killed</b>";
  bad.repro = "kcontract replay 'case=3'";
  std::string s = page({bad});
  CHECK(s.find("<script>alert") == std::string::npos);
  CHECK(s.find("&lt;script&gt;alert(&apos;pwned&apos;)&lt;/script&gt;&lt;img src=x&gt;") != std::string::npos);
  CHECK(s.find("evil&quot; onmouseover=&quot;alert(1)") != std::string::npos);
  CHECK(s.find("&lt;b&gt;killed&lt;/b&gt;") != std::string::npos);
  CHECK(count(s, "<script") == 1);  // the page's own filter script only
  CHECK(s.find("<img") == std::string::npos);
  CHECK(s.find("<link") == std::string::npos);
  CHECK(s.find("kcontract replay &apos;case=3&apos;") != std::string::npos);
}

TEST_CASE("the HTML report's table carries what its filters match, and each failure its evidence") {
  CaseResult fail = caseAt(2, 1, 33, Verdict::Fail, 40.0);
  fail.signatures = {"overflow"};
  fail.confirmed = {"overflow"};
  fail.worst = {{"y", {0, 32}, 0.5, 0.25, 0.25, 3e6, 1e-6, false}};
  fail.mismatched = 1;
  Diagnosis d;
  d.kernel = fail.kernel, d.contract = fail.contract, d.backend = fail.backend, d.failing = 1;
  d.causes = {{"overflow", "fails only when max(x) > 88", {2}}};
  std::string s = page({caseAt(1, 1, 1, Verdict::Pass, 0.01), fail}, {d});
  CHECK(s.find("data-verdict=\"FAIL\" data-signature=\"overflow\" data-dtype=\"f32\" data-layout=\"padded|contiguous\"") !=
        std::string::npos);
  CHECK(s.find("<option value=\"padded\">") != std::string::npos);
  CHECK(s.find("<b>overflow</b>: a control run on neutral inputs passed") != std::string::npos);
  CHECK(s.find("diagnosis: <b>overflow</b> \xE2\x80\x94 fails only when max(x) &gt; 88") != std::string::npos);
  CHECK(s.find("<td>(0, 32)</td>") != std::string::npos);
  CHECK(s.find("<h4>Worst cells (1 of 33 wrong)</h4>") != std::string::npos);
  CHECK(s.find("<a href=\"#case-0-2-0\">") != std::string::npos);
  CHECK(s.find("id=\"case-0-2-0\" open") != std::string::npos);
}

TEST_CASE("the verdict map puts the dim with the most values across and colours each square by its worst case") {
  std::vector<CaseResult> cases = {caseAt(1, 1, 1, Verdict::Pass, 0), caseAt(2, 1, 33, Verdict::Fail, 2),
                                   caseAt(3, 1, 33, Verdict::Pass, 0.5), caseAt(4, 64, 1025, Verdict::Pass, 0.1)};
  std::vector<const CaseResult*> ptrs;
  for (const auto& c : cases) ptrs.push_back(&c);
  std::string svg = verdictMapSvg(ptrs);
  CHECK(svg.find("aria-label=\"verdicts over H and R\"") != std::string::npos);
  CHECK(count(svg, "<rect class=\"cell\"") == 3);  // (1,1), (33,1) twice, (1025,64)
  CHECK(svg.find("H=33, R=1: FAIL (cases #2, #3)") != std::string::npos);
  CHECK(svg.find("H=1025, R=64: PASS (case #4)") != std::string::npos);

  CaseResult noDims = caseAt(1, 1, 1, Verdict::Pass, 0);
  noDims.dims.clear();
  CHECK(verdictMapSvg({&noDims}).find("no dims") != std::string::npos);
}

TEST_CASE("the tolerance plot puts 0 on its floor and an infinite ratio on its ceiling, and counts what it leaves out") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<CaseResult> cases = {caseAt(1, 1, 1, Verdict::Pass, 0), caseAt(2, 1, 2, Verdict::Pass, 1e-3),
                                   caseAt(3, 1, 3, Verdict::Fail, inf), caseAt(4, 1, 4, Verdict::Crash, 0)};
  cases[3].compared = 0;
  std::vector<const CaseResult*> ptrs;
  for (const auto& c : cases) ptrs.push_back(&c);
  std::string svg = toleranceSvg(ptrs);
  CHECK(count(svg, "class=\"point\"") == 3);
  CHECK(count(svg, "<path ") == 1);  // the infinite one, a triangle
  CHECK(svg.find("acme.softmax.rows@1#3: FAIL, error/tolerance inf") != std::string::npos);
  CHECK(svg.find("\xE2\x89\xA4" "1e-4") != std::string::npos);  // the floor: a decade below 1e-3
  CHECK(svg.find(">1e1<") != std::string::npos);                 // the ceiling: at least a decade above 1
  CHECK(svg.find("1 case compared no cells") != std::string::npos);
}
