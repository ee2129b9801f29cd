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

std::vector<std::pair<std::string, size_t>> oracleUse(const std::vector<CaseResult>& results) {
  std::vector<std::pair<std::string, size_t>> uses;
  for (const auto& r : results) {
    if (r.oracle.empty()) continue;
    auto it = std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == r.oracle; });
    if (it == uses.end()) uses.emplace_back(r.oracle, 1);
    else ++it->second;
  }
  return uses;
}

std::string jobOutcome(const std::vector<CaseResult>& results, bool kernelError) {
  if (kernelError) return "error";
  auto any = [&](Verdict v) {
    return std::any_of(results.begin(), results.end(), [&](const CaseResult& r) { return r.verdict == v; });
  };
  if (any(Verdict::Fail)) return "fail";
  if (any(Verdict::Crash)) return "crash";
  if (any(Verdict::Timeout)) return "timeout";
  if (any(Verdict::Error)) return "error";
  if (any(Verdict::Pass)) return "pass";
  if (any(Verdict::Mistrusted)) return "mistrusted";
  return "skipped";
}

std::vector<std::string> failSignatures(const std::vector<CaseResult>& results) {
  std::vector<std::string> out;
  for (const auto& r : results)
    if (r.verdict == Verdict::Fail)
      for (const auto& s : r.signatures)
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

bool Expectation::ok() const {
  if (got != expected.verdict) return false;
  // A pinned signature is the primary cause (the diagnosis ranks it first).
  return expected.signature.empty() || (!signatures.empty() && signatures.front() == expected.signature);
}

std::string Expectation::gotText() const {
  if (expected.signature.empty() || (got != "fail" && got != "crash")) return got;
  std::string s = got + " with ";
  for (size_t i = 0; i < signatures.size(); ++i) s += (i ? ", " : "") + signatures[i];
  return s;
}

void ExpectationTally::add(const std::string& label, const std::optional<ExpectedOutcome>& expect,
                           const std::vector<CaseResult>& results, bool kernelError, const Diagnosis* diagnosis) {
  if (!expect) return;
  jobs.push_back({label, *expect, jobOutcome(results, kernelError),
                  diagnosis && !diagnosis->empty() ? diagnosis->names() : failSignatures(results)});
}

size_t ExpectationTally::asExpected() const {
  return static_cast<size_t>(std::count_if(jobs.begin(), jobs.end(), [](const Expectation& e) { return e.ok(); }));
}

bool anyViolation(const std::vector<CaseResult>& results) {
  return std::any_of(results.begin(), results.end(), [](const CaseResult& r) { return isViolation(r.verdict); });
}

}  // namespace kc::report
