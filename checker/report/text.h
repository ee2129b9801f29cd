#pragma once
// The human report of `kcontract check`: a line per case as it finishes, a summary table at
// the end, and a progress bar on stderr for long runs. The detail lines (reason, signatures,
// worst cells, repro) are shared with the JUnit body.
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "checker/report/diagnosis.h"
#include "checker/report/result.h"

namespace kc::report {

// How bad a verdict is for a summary: PASS 0 < SKIPPED, UNKNOWN 1 < MISTRUSTED 2 < FAIL,
// CRASH, TIMEOUT, ERROR 3.
int verdictSeverity(Verdict v);
// The worse of two verdicts; on a tie in severity, the one first in enum order.
Verdict worseVerdict(Verdict a, Verdict b);

// The signatures to show: the case's own, or "unclassified" for a FAIL that matched none.
std::vector<std::string> shownSignatures(const CaseResult& r);

// A logical index the way torch prints a tuple: (0, 17), (5,), ().
std::string formatIndex(const std::vector<int64_t>& index);

// The compute-sanitizer lines of a case (`check --sanitize`): "compute-sanitizer memcheck:
// 1 error (re-run: ...)" then "| FINDING" per finding, or "...: not run: WHY". Empty without.
std::vector<std::string> sanitizerLines(const CaseResult& r);

// The detail lines of a non-PASS case, unindented: reason, violated, signature, the
// mismatch summary in torch.testing.assert_close's words, up to 5 worst cells, the tail of
// the kernel output, the perturbation (when the repeats differed), the sanitizer's lines,
// repro. For a PASS only the sanitizer's lines (usually none).
std::vector<std::string> caseDetails(const CaseResult& r);

// The case as it finishes: `VERDICT    CASE-ID   dims dtypes values layouts   0.01 s`
// (dims, dtypes and values as name=value, layouts as tensor:layout), then for a non-PASS the
// detail lines indented by 4. No trailing newline. ANSI colour on the verdict word when
// `color`.
std::string caseLine(const CaseResult& r, bool color);

// One row per (kernel, contract, backend), in order of first appearance: the count of each
// verdict (a verdict column appears only when some case has it; zero counts are blank), the
// worst verdict of the row, the distinct signatures; then a total row. Every line ends in '\n'.
// A row whose job has a diagnosis shows its names (primary first), else the cases' names.
std::string summaryTable(const std::vector<CaseResult>& results, bool color, const std::vector<Diagnosis>& diagnoses = {});

// `[#####.....] 37/86 cases  acme.softmax.rows@1#37`, `barWidth` cells wide.
std::string progressText(size_t done, size_t total, std::string_view current, size_t barWidth = 20);

// Draws progressText on one line of `out` with '\r'. The caller enables it only when `out`
// is a terminal (isTerminal) and the run is long; a disabled bar writes nothing. Call clear()
// before printing anything else to the terminal (a case line), then update() to redraw.
class ProgressBar {
 public:
  ProgressBar(size_t total, bool enabled, std::FILE* out = stderr);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void update(size_t done, std::string_view current);
  void clear();
  bool enabled() const { return enabled_; }

  static bool isTerminal(std::FILE* f);

 private:
  size_t total_;
  bool enabled_;
  std::FILE* out_;
  bool drawn_ = false;
};

}  // namespace kc::report
