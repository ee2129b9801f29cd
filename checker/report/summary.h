#pragma once
// The tallies of a `kcontract check` run over a suite: per job, the perturbations that did
// not run and whether the kernel got the verdict its suite entry expects; over the run, how
// many kernels got it, and the exit status. The command line prints them.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/report/diagnosis.h"
#include "checker/report/result.h"

namespace kc::report {

// The perturbations of `results` that did not run ("not supported ..."), each once, in order
// of first appearance, with the number of cases that asked for it.
std::vector<std::pair<std::string, size_t>> unsupportedPerturbations(const std::vector<CaseResult>& results);
// Which oracle ran (CaseResult::oracle, when check --oracle asked for a compiled one), each
// once, in order of first appearance, with the number of cases.
std::vector<std::pair<std::string, size_t>> oracleUse(const std::vector<CaseResult>& results);

// What a suite entry may expect of its kernel (docs/checking.md, "Suites"): `expect: fail`
// or `expect: {verdict: fail, signature: k-tail}` (the diagnosis's primary cause).
inline const std::vector<std::string>& outcomeNames() {
  static const std::vector<std::string> names = {"pass", "fail", "error", "crash", "timeout", "mistrusted", "skipped"};
  return names;
}

struct ExpectedOutcome {
  std::string verdict;    // one of outcomeNames()
  std::string signature;  // with verdict fail or crash: the diagnosis's primary cause; empty: any
  std::string text() const { return signature.empty() ? verdict : verdict + " with " + signature; }
};

// What one job got, its own word for each way it can end: "fail" when some case FAILed (a
// postcondition violated), else "crash", "timeout" or "error" when some case did (in that
// order), else "pass" when some case passed, else "mistrusted" when some case proved
// nothing, else "skipped" (nothing ran). `kernelError`: the kernel could not be found,
// built, loaded or started, so no case ran: "error".
std::string jobOutcome(const std::vector<CaseResult>& results, bool kernelError = false);

// The signatures the job's FAIL cases name, each once, in order of first appearance.
std::vector<std::string> failSignatures(const std::vector<CaseResult>& results);

struct Expectation {
  std::string label;
  ExpectedOutcome expected;
  std::string got;                      // jobOutcome
  std::vector<std::string> signatures;  // the diagnosis's names, primary first (else failSignatures)
  bool ok() const;
  // "fail", or "fail with overflow, k-tail" (or "crash with ...") when a signature was pinned.
  std::string gotText() const;
};

// The suite kernels that say what they expect, and whether they got it.
struct ExpectationTally {
  std::vector<Expectation> jobs;
  // Records one job's results against what it expects (nothing when it expects nothing).
  void add(const std::string& label, const std::optional<ExpectedOutcome>& expect, const std::vector<CaseResult>& results,
           bool kernelError = false, const Diagnosis* diagnosis = nullptr);
  size_t expected() const { return jobs.size(); }
  size_t asExpected() const;
  // --expect: every kernel that expects a verdict got it, and there was at least one.
  bool allAsExpected() const { return expected() > 0 && asExpected() == expected(); }
};

// Whether any result is a violation (the run's exit status without --expect).
bool anyViolation(const std::vector<CaseResult>& results);

}  // namespace kc::report
