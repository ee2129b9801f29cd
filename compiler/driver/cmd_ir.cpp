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
  InputOptions in;
  bool sexpr = false;
} gIr;

int runIr(const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, gIr.in, opts, Stage::Sema, chosen)) return kExitInput;
  std::cout << sema::dumpProgram(*c.program, c.fileIds, gIr.sexpr);
  return kExitOk;
}

}  // namespace

void addIrCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("ir", "Check contracts and print their kernels and parts as typed IR");
  addInputOptions(sub, gIr.in);
  sub->add_flag("--sexpr", gIr.sexpr, "Print expressions as typed S-expressions");
  commands.emplace_back(sub, &runIr);
}

}  // namespace kc::driver
