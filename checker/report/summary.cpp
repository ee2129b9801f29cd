#include "checker/report/summary.h"

#include <algorithm>

namespace kc::report {

std::vector<std::pair<std::string, size_t>> unsupportedPerturbations(const std::vector<CaseResult>& results) {
  std::vector<std::pair<std::string, size_t>> unsupported;
  for (const auto& r : results) {
    if (r.perturbation.rfind("not supported", 0) != 0) continue;
    auto it = std::find_if(unsupported.begin(), unsupported.end(), [&](const auto& u) { return u.first == r.perturbation; });
    if (it == unsupported.end()) unsupported.emplace_back(r.perturbation, 1);
    else ++it->second;
  }
  return unsupported;
}

std::string jobOutcome(const std::vector<CaseResult>& results) {
  bool failed = false, passed = false;
  for (const auto& r : results) {
    failed = failed || isViolation(r.verdict);
    passed = passed || r.verdict == Verdict::Pass;
  }
  return failed ? "fail" : passed ? "pass" : "nothing";
}

void ExpectationTally::add(const std::string& label, const std::optional<std::string>& expect,
                           const std::vector<CaseResult>& results) {
  if (!expect) return;
  jobs.push_back({label, *expect, jobOutcome(results)});
}

size_t ExpectationTally::asExpected() const {
  return static_cast<size_t>(std::count_if(jobs.begin(), jobs.end(), [](const Expectation& e) { return e.ok(); }));
}

bool anyViolation(const std::vector<CaseResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const CaseResult& r) { return isViolation(r.verdict); });
}

}  // namespace kc::report
