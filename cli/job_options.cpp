#include "cli/job_options.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/output.h"
#include "sandbox/mode.h"

namespace kc::driver {

void addJobOptions(CLI::App* sub, check::JobOptions& o) {
  sub->add_option("targets", o.targets, "Contract files, contract IDs, or a suite .yaml");
  sub->add_option("-I,--include", o.includeDirs, "Another folder to search for imports and contract IDs");
  sub->add_option("--impl", o.impl, "The kernel to check: PATH[:ENTRY] (.c, .cpp, .so; ENTRY defaults to kc_<kernel>)");
  sub->add_option("--op", o.op,
                  "Check --impl against this standard op's contract (the newest std.op.NAME, or NAME@V); kcontract ops lists "
                  "them");
  sub->add_option("--bind", o.bind,
                  "INPUT=ATTR (repeatable): give the contract's input INPUT to the attribute ATTR (ln.weight) of a Python-file "
                  "kernel's module instead of as an argument (exec backend)");
  sub->add_option("--backend", o.backend, "host, cuda, opencl, exec or ptx (default: host; exec for a .py or .kcexec kernel)");
  sub->add_option_function<std::string>(
         "--sandbox", [](const std::string& m) { sandbox::setMode(sandbox::parseMode(m)); },
         "The cell kernels and their compiles run in (docs/security.md): auto (default: every layer this machine "
         "allows), strict (every layer, or nothing runs) or off (the kernel runs with the checker's rights)")
      ->check(CLI::IsMember({"auto", "strict", "off"}));
}

int buildJobs(Compilation& c, check::JobOptions& o, const GlobalOptions& opts, std::vector<check::Job>& jobs) {
  try {
    sandbox::requireLayers();
  } catch (const std::exception& e) {
    std::cerr << "kcontract: " << e.what() << "\n";
    return kExitInput;
  }
  check::JobError error;
  bool ok = check::buildJobs(c, o, opts.warningsAsErrors, jobs, error);
  // Errors found before compiling leave no diagnostics; those after it follow them.
  printDiagnostics(c.diags, opts);
  if (!error.message.empty()) std::cerr << (error.located ? "" : "kcontract check: ") << error.message << "\n";
  return ok ? kExitOk : kExitInput;
}

}  // namespace kc::driver
