// kcontract calibrate [CLASS-ID|OP|CONTRACT-ID|MANIFEST.yaml ...] [--all] [--backend B]
// Three-state calibration of the standard contract classes and ops (checker/calibration_flow.h): for each
// pair in the manifest, the conforming kernel passes the contract, the violating kernel passes
// a plain allclose, and the contract catches the violating kernel with the expected signature.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "backends/backend_names.h"
#include "checker/calibration_flow.h"
#include "cli/cli.h"
#include "cli/flag_values.h"
#include "cli/output.h"

namespace kc::driver {

namespace {

struct CalibrateCliOptions {
  check::CalibrateOptions cal;
  double timeout = 10;
  std::string shard;
  std::string maxMemory;
};

int fail(const std::string& message) {
  std::cerr << "kcontract calibrate: " << message << "\n";
  return kExitInput;
}

struct Printer : check::CalibrationObserver {
  void pair(const check::CalibrationEntry& e, const sema::ContractInfo& ct) override {
    std::cout << (e.isOp() ? "op " + e.op : e.classId) << "  (" << ct.id << ", " << e.backend
              << (e.dtype.empty() ? "" : ", " + e.dtype) << ")\n";
    if (!e.rationale.empty()) std::cout << "  violating kernel: " << e.rationale << "\n";
  }
  void state(const char* what, const check::StateResult& s) override {
    std::cout << "  " << what << "  " << check::stateOutcomeName(s.outcome) << "  " << s.summary << "\n";
    if (s.outcome != check::StateOutcome::Shown && !s.detail.empty()) std::cout << "      " << s.detail << "\n";
  }
};

int runCalibrate(CalibrateCliOptions o, const GlobalOptions& opts) {
  if (!o.cal.backend.empty() && !backend::isBackendName(o.cal.backend)) {
    std::string list = backend::backendNamesText();
    return fail("--backend is " + list.replace(list.rfind(" and "), 5, " or ") + "; not '" + o.cal.backend + "'");
  }
  if (!o.shard.empty() && !parseShard(o.shard, o.cal.shardIndex, o.cal.shardCount))
    return fail("--shard is I/N with 0 <= I < N; not '" + o.shard + "'");
  o.cal.memoryCapped = !o.maxMemory.empty();
  if (o.cal.memoryCapped && !parseBytes(o.maxMemory, o.cal.run.maxCaseBytes))
    return fail("--max-memory is a size such as 512M or 4G (1 byte to 1024T); not '" + o.maxMemory + "'");
  o.cal.run.timeoutSeconds = o.timeout;
  Compilation c;
  check::Calibration cal;
  check::CalibrationError error;
  bool ok = cal.prepare(c, o.cal, opts.warningsAsErrors, error);
  printDiagnostics(c.diags, opts);
  if (!error.message.empty()) std::cerr << (error.located ? "" : "kcontract calibrate: ") << error.message << "\n";
  if (!ok) return kExitInput;

  Printer printer;
  check::CalibrationSummary sum = cal.run(printer);
  std::cout << "\ncalibrate: " << sum.calibrated << " of " << sum.pairs << " calibration pairs show all three states";
  if (sum.skipped) std::cout << ", " << sum.skipped << " skipped (a state whose cases could not run here: a backend this machine lacks, or past the memory limit)";
  if (sum.notShown()) std::cout << ", " << sum.notShown() << " do NOT";
  std::cout << "\n";
  for (const auto& id : sum.uncalibrated) std::cout << "calibrate: class " << id << " has no calibration pair\n";
  for (const auto& id : sum.uncalibratedOps)
    std::cout << "calibrate: op " << id.substr(7, id.find('@') - 7) << " (" << id << ") has no calibration pair\n";
  return sum.ok() ? kExitOk : kExitFailed;
}

}  // namespace

void addCalibrateCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<CalibrateCliOptions>();
  CLI::App* sub = app.add_subcommand("calibrate", "Three-state calibration of the standard contract classes and ops");
  sub->add_option("targets", o->cal.targets, "Class IDs, ops (relu, std.op.relu@1) or contract IDs to calibrate, or a calibration manifest .yaml");
  sub->add_flag("--all", o->cal.all, "Every pair of the manifest; with the shipped one, also require a pair for every class and every op");
  sub->add_option("--backend", o->cal.backend, "Only the pairs of this backend (host, cuda, ...)");
  sub->add_option("-I,--include", o->cal.includeDirs, "Another folder to search for imports and contract IDs");
  sub->add_option("--timeout", o->timeout, "Seconds one run of a case may take before it is killed (default 10)")
      ->check(secondsValue());
  sub->add_option("--max-memory", o->maxMemory,
                  "Host memory a case may use, e.g. 512M or 4G (default 4G); larger cases are SKIPPED and counted in each "
                  "state's line");
  sub->add_option("--shard", o->shard,
                  "Calibrate the chosen pairs I, I + N, ... (I/N), to split the work; --all still requires a pair for every "
                  "class and op");
  sub->add_option("--seed", o->cal.run.seed, "The base seed of every plan (default 0)")->check(integerValue(0, UINT64_MAX));
  commands.emplace_back(sub, [o](const GlobalOptions& g) { return runCalibrate(*o, g); });
}

}  // namespace kc::driver
