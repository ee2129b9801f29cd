// kcontract parse FILE... [--json] [--no-ranges]: the AST, as golden tests and tools see it.
#include <CLI/CLI.hpp>
#include <memory>
#include <iostream>

#include "compiler/ast/dump.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "compiler/pipeline.h"

namespace kc::driver {

namespace {

struct ParseOptions {
  std::vector<std::string> files;
  bool json = false;
  bool noRanges = false;
};

int runParse(const ParseOptions& cmd, const GlobalOptions& opts) {
  Compilation c;
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  compile(c, cmd.files, Stage::Parse);
  printDiagnostics(c.diags, opts);
  if (c.diags.hasErrors()) return kExitInput;

  bool ranges = !cmd.noRanges;
  if (cmd.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : c.files) out.push_back(ast::dumpJson(*f, ranges));
    std::cout << (out.size() == 1 ? out[0] : out).dump(2) << "\n";
  } else {
    for (size_t i = 0; i < c.files.size(); ++i) {
      if (c.files.size() > 1) std::cout << "== " << cmd.files[i] << " ==\n";
      std::cout << ast::dumpText(*c.files[i], ranges);
    }
  }
  return kExitOk;
}

}  // namespace

void addParseCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<ParseOptions>();
  CLI::App* sub = app.add_subcommand("parse", "Parse .kcontract files and print their syntax tree");
  sub->add_option("files", cmd->files, "The .kcontract files")->required();
  sub->add_flag("--json", cmd->json, "Print the tree as JSON, with a source range on every node");
  sub->add_flag("--no-ranges", cmd->noRanges, "Leave source ranges out of the dump");
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runParse(*cmd, g); });
}

}  // namespace kc::driver
