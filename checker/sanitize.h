#pragma once
// compute-sanitizer mode (`kcontract check --sanitize TOOL`, docs/checking.md): a case is
// re-run under NVIDIA's compute-sanitizer through its reproducer — a child process runs
// `compute-sanitizer --tool TOOL kcontract replay 'REPRO'` — and what the tool reports is
// attached to the case (report::SanitizerRun). The case's verdict never changes: the tool
// is a deeper look, not a judge, and a tool that is missing or does not apply is said so,
// never counted as a clean run.
#include <string>
#include <vector>

#include "checker/report/result.h"

namespace kc::check {

// The tools: memcheck, racecheck, initcheck, synccheck.
const std::vector<std::string>& sanitizerTools();

// The compute-sanitizer to run: $KC_COMPUTE_SANITIZER, else compute-sanitizer on PATH, else
// /usr/local/cuda/bin/compute-sanitizer; "" when none is there.
std::string findComputeSanitizer();

// Reads the tool's output (its `=========`-prefixed lines; other lines are ignored): the
// error count from "ERROR SUMMARY: N errors" (summed over processes) or racecheck's
// "RACECHECK SUMMARY: ... (N errors, ...)", whichever is larger (-1 when neither is there),
// and up to `maxFindings` distinct report headlines ("Invalid __global__ read of size 4
// bytes", "Race reported between Write access at ...") with a count when one repeats.
report::SanitizerRun parseSanitizerOutput(const std::string& tool, const std::string& text, size_t maxFindings = 5);

struct SanitizeRequest {
  std::string tool;
  std::string backend;     // the case's backend: only cuda cases can be sanitized
  report::Verdict verdict = report::Verdict::Unknown;
  std::string skipReason;  // the case's reason when SKIPPED
  std::string repro;       // the case's reproducer line (repro.h)
  std::string kcontract;   // the kcontract to run under the tool ("" : this process's own)
  std::string sanitizer;   // the compute-sanitizer ("" : findComputeSanitizer())
  double timeoutSeconds = 10;  // the case's timeout; the re-run gets 20 times as much
};

// Re-runs the case under the tool, or says why it did not. Never throws.
report::SanitizerRun sanitizeCase(const SanitizeRequest& request);

}  // namespace kc::check
