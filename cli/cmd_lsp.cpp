// kcontract lsp [-I DIR]: a Language Server over stdin and stdout (docs/editors.md).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "lsp/server.h"

namespace kc::driver {

namespace {

struct LspOptions {
  std::vector<std::string> includeDirs;
};

int runLsp(const LspOptions& o) {
  std::ios::sync_with_stdio(false);
  lsp::ServerOptions options;
  options.includeDirs = o.includeDirs;
  options.log = &std::cerr;
  options.version = std::string(kToolVersion);
  return lsp::serve(std::cin, std::cout, options);
}

}  // namespace

void addLspCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<LspOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lsp", "Serve the Language Server Protocol on stdin and stdout: diagnostics, formatting, hover (for editors)");
  cmd->add_option("-I,--include", o->includeDirs, "More folders for imports and for the IDs hover explains");
  commands.emplace_back(cmd, [o](const GlobalOptions&) { return runLsp(*o); });
}

}  // namespace kc::driver
