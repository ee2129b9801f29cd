#pragma once
// The kill matrix: one kernel (the original, or a mutant built from its own source file) run
// through the checker's own pipeline (checker/check.h runJob) against every job of the plan,
// and against the plain allclose baseline. Nothing here shells out to the command line.
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "checker/check.h"

namespace kc::mutate {

// What each run of each case produced: (job, case number, seed index) -> a digest of the
// output images (the same bytes: the same digest).
using OutputDigests = std::map<std::tuple<size_t, size_t, size_t>, uint64_t>;

struct KernelRun {
  bool built = true;              // false: the kernel could not be built or loaded
  std::string buildError;         // its first line
  size_t cases = 0;               // case results seen
  bool killed = false;            // some case FAILed, CRASHed, TIMED OUT or ERRORed
  std::string killedBy;           // the first: "std.op.relu@1#12 FAIL (unclassified)"
  std::vector<std::string> signatures;  // of every failing case, deduplicated
  bool named = false;             // the diagnosis's primary cause is a signature of the family
                                  // (KC_MUTATE_CASE_NAMING set: some failing case matched one)
  std::string cause;              // the diagnosis's primary cause ("unclassified" when none)
  std::string firstFailure;       // the first non-PASS result's reason (a failing original)
  OutputDigests digests;
};

// How a killed mutant is named: by the diagnosis's primary cause (what a user's check
// reports), or by the signatures any one failing case matched (the earlier measure).
enum class Naming { Diagnosis, Signatures };

// The jobs run as the checker runs them, with `kernelPath` standing in for each job's kernel
// source (the entry kept). With `family` set (a mutant), the run stops at the first case that
// kills with a signature of that family (Naming::Signatures) or after a few kills (Naming::
// Diagnosis, which then diagnoses them); otherwise (the original) every case runs.
KernelRun runKernel(const std::vector<check::Job>& jobs, const std::string& kernelPath, const check::RunOptions& run,
                    const std::string& family, Naming naming = Naming::Diagnosis);

// The allclose baseline of calibration (docs/calibration.md): one friendly shape, 5 seeds,
// atol = rtol = 1e-2, judged by the plain allclose harness. Killed: some seed does not pass.
KernelRun runAllclose(const std::vector<check::Job>& jobs, const std::string& kernelPath, const check::RunOptions& run);

}  // namespace kc::mutate
