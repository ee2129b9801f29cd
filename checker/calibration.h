#pragma once
// Three-state calibration (docs/design.md §2): every standard contract class and every standard
// op ships a conforming and a violating implementation, and proves
//   1. conforming  the conforming kernel passes the contract that applies the class (for an
//                  op: the op's standard contract std.op.NAME, its newest version);
//   2. allclose    the violating kernel passes a plain allclose (one friendly shape, 5 seeds,
//                  atol = rtol = 1e-2) — the check it would otherwise be accepted by;
//   3. caught      the contract catches the violating kernel, naming the expected signature.
// A class or op that cannot show all three is not calibrated. The pairs are listed in a manifest
// (contracts/calibration.yaml, docs/calibration.md); loading it is here, running the jobs is
// checker/calibration_flow.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/report/result.h"
#include "checker/suite.h"

namespace kc::check {

// One calibration pair: of a class (`classes:`) or of a standard op (`ops:`).
struct CalibrationEntry {
  std::string classId;     // std.exc.nan-propagation@1; empty for an op's pair
  std::string op;          // relu (an op's pair); empty for a class's pair
  // The contract (ID or .kcontract path) that applies the class; for an op's pair its
  // standard contract, std.op.relu (the newest version) until the flow resolves the version.
  std::string contract;
  std::string conforming;  // PATH[:ENTRY], relative to the manifest's folder
  std::string violating;   // PATH[:ENTRY]
  std::string signature;   // the signature the contract must name on the violating kernel
  std::string backend = backend::kHostBackend;
  std::string rationale;   // what the violating kernel does wrong, one line
  // `allclose-prefill: reference`: the allclose harness's output buffers hold the reference's
  // answer before the launch (a caching allocator reusing the reference's memory).
  bool prefillReference = false;
  // `allclose-dims: {H: 32}`: the allclose case at these sizes rather than the friendly ones,
  // for a pair whose plain allclose baseline is a smaller shape (at most the friendly size).
  std::vector<std::pair<std::string, int64_t>> allcloseDims;
  // `dtype: f16`: all three states at this dtype (check --dtype; the allclose case too)
  // rather than the contract's whole plan and an f32 allclose case.
  std::string dtype;
  int line = 0;
  bool isOp() const { return !op.empty(); }
};

struct CalibrationManifest {
  std::string path;
  std::vector<std::string> includeDirs;  // relative to the manifest's folder
  std::vector<CalibrationEntry> entries;
};

// Reads a `kcontract-calibration: 1` file (its `classes:` pairs, then its `ops:` pairs); malformed
// ones throw SuiteError with FILE:LINE:COL.
CalibrationManifest loadCalibration(const std::string& path);

// The three states of one entry.
enum class StateOutcome { Shown, NotShown, Skipped };
const char* stateOutcomeName(StateOutcome s);  // "yes", "NO", "skipped"

struct StateResult {
  StateOutcome outcome = StateOutcome::NotShown;
  std::string summary;  // "12 cases pass", "5 seeds at R=64, H=1024", "nan-swallowed (case #5)"
  std::string detail;   // why not shown: the first result that broke it, with its reproducer
};

// State 1 from the conforming kernel's results: some case passed, none failed, crashed,
// timed out or errored (MISTRUSTED cases prove nothing either way; SKIPPED only: skipped).
StateResult conformingState(const std::vector<report::CaseResult>& results);
// State 2 from the allclose run of the violating kernel: every seed passed.
StateResult allcloseState(const std::vector<report::CaseResult>& results);
// State 3 from the contract's run on the violating kernel: some case FAILs with `signature`.
// With `memoryCapped` (calibrate --max-memory), a kernel not caught as `signature` while
// cases were SKIPPED past that limit is skipped, not NOT shown: those cases may catch it.
StateResult caughtState(const std::vector<report::CaseResult>& results, const std::string& signature,
                        bool memoryCapped = false);

}  // namespace kc::check
