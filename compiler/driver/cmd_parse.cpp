// kcontract parse FILE... [--json] [--no-ranges]: the AST, as golden tests and tools see it.
#include <CLI/CLI.hpp>
#include <iostream>

#include "compiler/ast/dump.h"
#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "compiler/pipeline.h"

namespace kc::driver {

namespace {

struct ParseOptions {
  std::vector<std::string> files;
  bool json = false;
  bool noRanges = false;
} gParse;

int runParse(const GlobalOptions& opts) {
  Compilation c;
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  compile(c, gParse.files, Stage::Parse);
  printDiagnostics(c.diags, opts);
  if (c.diags.hasErrors()) return kExitInput;

  bool ranges = !gParse.noRanges;
  if (gParse.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : c.files) out.push_back(ast::dumpJson(*f, ranges));
    std::cout << (out.size() == 1 ? out[0] : out).dump(2) << "\n";
  } else {
    for (size_t i = 0; i < c.files.size(); ++i) {
      if (c.files.size() > 1) std::cout << "== " << gParse.files[i] << " ==\n";
      std::cout << ast::dumpText(*c.files[i], ranges);
    }
  }
  return kExitOk;
}

}  // namespace

void addParseCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("parse", "Parse .kcontract files and print their syntax tree");
  sub->add_option("files", gParse.files, "The .kcontract files")->required();
  sub->add_flag("--json", gParse.json, "Print the tree as JSON, with a source range on every node");
  sub->add_flag("--no-ranges", gParse.noRanges, "Leave source ranges out of the dump");
  commands.emplace_back(sub, &runParse);
}

}  // namespace kc::driver
