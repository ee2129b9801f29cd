#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

namespace kc::driver {

int run(int argc, char** argv) {
  CLI::App app{"kcontract — contracts for GPU kernels, and the checker that enforces them"};
  app.set_version_flag("--version", "kcontract 0.1.0 (language version 1)");
  app.require_subcommand(1);
  GlobalOptions opts;
  app.add_option("--color", opts.color, "Colour in diagnostics: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--warnings-as-errors", opts.warningsAsErrors, "Treat every warning as an error");

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
  addCatalogCommands(app, commands);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitInput;
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
