#pragma once
// The calibration flow of `kcontract calibrate` (docs/calibration.md): pick the pairs of a
// manifest (checker/calibration.h), compile the contracts they name (an op's pair: the newest
// version of its standard contract), check that every class pair names a class its contract
// applies and every pair a signature the contract has, then run the three states of each
// pair, class pairs and op pairs alike. The command line parses the flags and prints what this reports.
#include <string>
#include <vector>

#include "checker/calibration.h"
#include "checker/check.h"
#include "compiler/pipeline.h"

namespace kc::check {

struct CalibrateOptions {
  std::vector<std::string> targets;  // class, op or contract IDs, or one manifest .yaml
  std::vector<std::string> includeDirs;
  std::string backend;  // only the pairs of this backend
  bool all = false;     // every pair; with the shipped manifest, a pair for every class and op
  size_t shardIndex = 0, shardCount = 1;  // --shard I/N: the chosen pairs I, I + N, ... (the checks of --all in each)
  RunOptions run;       // seed, time limit and memory limit of every run
  bool memoryCapped = false;  // run.maxCaseBytes was set (--max-memory): see caughtState
};

// Why calibration could not start: one line (or several) for stderr. `located` messages
// start with FILE:LINE (the manifest) and are printed as they are; the others follow the
// command's name ("kcontract calibrate: "). An empty message: the diagnostics in c.diags say why.
struct CalibrationError {
  std::string message;
  bool located = false;
};

// What the runs report as they go, in order: each pair, then each of its three states.
struct CalibrationObserver {
  virtual ~CalibrationObserver() = default;
  virtual void pair(const CalibrationEntry& e, const sema::ContractInfo& contract) = 0;
  // `what` names the state ("conforming passes the contract     ", padded for a column).
  virtual void state(const char* what, const StateResult& s) = 0;
};

struct CalibrationSummary {
  size_t pairs = 0;       // pairs run
  size_t calibrated = 0;  // pairs that showed all three states
  size_t skipped = 0;     // pairs not shown because a backend is not available here
  std::vector<std::string> uncalibrated;     // --all with the shipped manifest: classes without a pair
  std::vector<std::string> uncalibratedOps;  // and the ops' contracts (std.op.NAME@V) without one
  size_t notShown() const { return pairs - calibrated - skipped; }
  bool ok() const { return notShown() == 0 && uncalibrated.empty() && uncalibratedOps.empty(); }
};

class Calibration {
 public:
  // Loads the manifest, picks the pairs asked for, compiles their contracts into `c` (the
  // diagnostics stay in c.diags for the caller to print) and checks every pair. False, with
  // `error` set, when there is nothing to run.
  bool prepare(Compilation& c, const CalibrateOptions& o, bool warningsAsErrors, CalibrationError& error);
  // Runs the three states of every chosen pair (a conforming kernel shared by several pairs
  // of one contract runs once).
  CalibrationSummary run(CalibrationObserver& observer);

 private:
  const Compilation* c_ = nullptr;
  CalibrationManifest manifest_;
  std::vector<CalibrationEntry> chosen_;  // an op pair's contract resolved to its version
  std::vector<std::string> uncalibrated_, uncalibratedOps_;
  RunOptions run_;
  bool memoryCapped_ = false;
};

}  // namespace kc::check
