// kcontract ir FILE... [--sexpr] [-I DIR]: the semantic model of the contracts, as IR.
#include <CLI/CLI.hpp>
#include <iostream>

#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "compiler/pipeline.h"
#include "compiler/sema/dump.h"

namespace kc::driver {

namespace {

struct IrOptions {
  std::vector<std::string> files;
  std::vector<std::string> includeDirs;
  bool sexpr = false;
} gIr;

int runIr(const GlobalOptions& opts) {
  Compilation c;
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  c.includeDirs = gIr.includeDirs;
  compile(c, gIr.files, Stage::Sema);
  printDiagnostics(c.diags, opts);
  if (c.diags.hasErrors()) return kExitInput;
  std::cout << sema::dumpProgram(*c.program, c.fileIds, gIr.sexpr);
  return kExitOk;
}

}  // namespace

void addIrCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("ir", "Check contracts and print their kernels and parts as typed IR");
  sub->add_option("files", gIr.files, "The .kcontract files")->required();
  sub->add_option("-I,--include", gIr.includeDirs, "Another folder to search for imported modules");
  sub->add_flag("--sexpr", gIr.sexpr, "Print expressions as typed S-expressions");
  commands.emplace_back(sub, &runIr);
}

}  // namespace kc::driver
