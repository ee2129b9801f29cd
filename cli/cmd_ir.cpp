// kcontract ir FILE... [--sexpr] [-I DIR]: the semantic model of the contracts, as IR.
#include <CLI/CLI.hpp>
#include <memory>
#include <iostream>

#include "cli/cli.h"
#include "cli/output.h"
#include "compiler/pipeline.h"
#include "compiler/sema/dump.h"

namespace kc::driver {

namespace {

struct IrOptions {
  InputOptions in;
  bool sexpr = false;
};

int runIr(const IrOptions& cmd, const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, cmd.in, opts, Stage::Sema, chosen)) return kExitInput;
  std::cout << sema::dumpProgram(*c.program, c.fileIds, cmd.sexpr);
  return kExitOk;
}

}  // namespace

void addIrCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<IrOptions>();
  CLI::App* sub = app.add_subcommand("ir", "Check contracts and print their kernels and parts as typed IR");
  addInputOptions(sub, cmd->in);
  sub->add_flag("--sexpr", cmd->sexpr, "Print expressions as typed S-expressions");
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runIr(*cmd, g); });
}

}  // namespace kc::driver
