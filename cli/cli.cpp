#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "stdlib/data_root.h"

namespace kc::driver {

namespace {

// --version: the version, then the data folder in use (or why there is none: exit 2).
int printVersion() {
  std::cout << "kcontract " << kToolVersion << " (language version 1)\n";
  try {
    const stdlib::DataRoot& data = stdlib::dataRoot();
    std::cout << "data folder: " << data.path << " (" << stdlib::originText(data.origin) << ")\n";
  } catch (const stdlib::DataRootError& e) {
    std::cerr << "kcontract: " << e.what() << "\n";
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"kcontract — contracts for GPU kernels, and the checker that enforces them"};
  app.set_version_flag("--version", std::string(kToolVersion), "Print the version and the data folder in use, and exit");
  app.require_subcommand(1);
  GlobalOptions opts;
  opts.args.assign(argv + (argc > 0 ? 1 : 0), argv + argc);
  app.add_option("--color", opts.color, "Colour in diagnostics: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--warnings-as-errors", opts.warningsAsErrors, "Treat every warning as an error");
  // The global options are accepted after the subcommand too (`kcontract check --color never`):
  // a subcommand passes an option it does not know up to here (its subcommands inherit this).
  app.fallthrough();

  std::vector<std::pair<CLI::App*, Action>> commands;
  addParseCommand(app, commands);
  addFmtCommand(app, commands);
  addIrCommand(app, commands);
  addPlanCommand(app, commands);
  addObligationsCommand(app, commands);
  addProveCommand(app, commands);
  addCheckCommand(app, commands);
  addReplayCommand(app, commands);
  addCalibrateCommand(app, commands);
  addMutateCommand(app, commands);
  addCatalogCommands(app, commands);
  addMergeCommand(app, commands);
  addOracleCommand(app, commands);
  addIncidentCommand(app, commands);
  addLspCommand(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion&) {
    return printVersion();
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitInput;
  }
  // Every subcommand may need the data folder (the standard library, the headers kernels are
  // built with): a wrong KC_HOME or a binary without its data is said here, before any work.
  try {
    stdlib::dataRoot();
  } catch (const stdlib::DataRootError& e) {
    std::cerr << "kcontract: " << e.what() << "\n";
    return kExitInput;
  }
  try {
    for (auto& [sub, action] : commands)
      if (sub->parsed()) return action(opts);
  } catch (const std::exception& e) {
    std::cerr << "kcontract: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitInput;
}

}  // namespace kc::driver
