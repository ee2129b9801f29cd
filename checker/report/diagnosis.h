#pragma once
// A failing kernel's diagnosis (checker/diagnose/, docs/checking.md "How a cause is
// chosen"): the causes its evidence supports, ranked, the first the primary; what each
// diagnostic re-run showed; and the candidate names that were not named, with why. The
// reports print it after the job's cases; the summary table and a suite's pinned signature
// use its names.
#include <cstddef>
#include <string>
#include <vector>

namespace kc::report {

struct Cause {
  std::string name;           // a signature name, e.g. k-tail
  std::string evidence;       // one line: what shows it
  std::vector<size_t> cases;  // the failing cases (case numbers) it explains
};

struct Diagnosis {
  std::string kernel, contract, backend;  // the job, as its results name it
  size_t failing = 0;                     // FAIL and CRASH cases
  std::vector<Cause> causes;              // ranked: causes[0] is the primary cause
  std::vector<std::string> probes;        // each diagnostic re-run: what changed, what it showed
  std::vector<std::string> notNamed;      // "NAME: why not"
  std::vector<size_t> unexplained;        // failing cases no cause explains

  bool empty() const { return failing == 0; }
  // The names, primary first; {"unclassified"} when the failures have no supported cause.
  std::vector<std::string> names() const;
};

// The diagnosis as the text report prints it: a header line and indented evidence.
std::string diagnosisText(const Diagnosis& d);

}  // namespace kc::report
