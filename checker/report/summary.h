#pragma once
// The tallies of a `kcontract check` run over a suite: per job, the perturbations that did
// not run and whether the kernel got the verdict its suite entry expects; over the run, how
// many kernels got it, and the exit status. The command line prints them.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/report/result.h"

namespace kc::report {

// The perturbations of `results` that did not run ("not supported ..."), each once, in order
// of first appearance, with the number of cases that asked for it.
std::vector<std::pair<std::string, size_t>> unsupportedPerturbations(const std::vector<CaseResult>& results);

// What one job got: "fail" when some case was a violation (FAIL, CRASH, TIMEOUT or ERROR),
// else "pass" when some case passed, else "nothing".
std::string jobOutcome(const std::vector<CaseResult>& results);

struct Expectation {
  std::string label;
  std::string expected;  // "pass" or "fail"
  std::string got;       // jobOutcome
  bool ok() const { return got == expected; }
};

// The suite kernels that say what they expect, and whether they got it.
struct ExpectationTally {
  std::vector<Expectation> jobs;
  // Records one job's results against what it expects (nothing when it expects nothing).
  void add(const std::string& label, const std::optional<std::string>& expect, const std::vector<CaseResult>& results);
  size_t expected() const { return jobs.size(); }
  size_t asExpected() const;
  // --expect: every kernel that expects a verdict got it, and there was at least one.
  bool allAsExpected() const { return expected() > 0 && asExpected() == expected(); }
};

// Whether any result is a violation (the run's exit status without --expect).
bool anyViolation(const std::vector<CaseResult>& results);

}  // namespace kc::report
