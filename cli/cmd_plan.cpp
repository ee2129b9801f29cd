// kcontract plan FILE|ID... [--json] [--seed N] [-I DIR]: the measurement plan of every contract
// declared in the files, deterministic for a given seed.
#include <CLI/CLI.hpp>
#include <memory>
#include <iostream>

#include "cli/cli.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

namespace {

struct PlanOptions {
  InputOptions in;
  bool json = false;
  uint64_t seed = 0;
};

int runPlan(const PlanOptions& cmd, const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, cmd.in, opts, Stage::Sema, chosen)) return kExitInput;
  plan::Options po;
  po.seed = cmd.seed;
  std::vector<plan::Plan> plans;
  for (plan::Plan& p : plan::planProgram(*c.program, c.fileIds, po))
    if (isChosen(chosen, p.contract)) plans.push_back(std::move(p));
  std::cout << (cmd.json ? plan::plansJson(plans) : plan::plansText(plans));
  return kExitOk;
}

}  // namespace

void addPlanCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<PlanOptions>();
  CLI::App* sub = app.add_subcommand("plan", "Print the measurement plan of each contract: its cases, deterministic for a seed");
  addInputOptions(sub, cmd->in);
  sub->add_flag("--json", cmd->json, "Print the plans as JSON");
  sub->add_option("--seed", cmd->seed, "The base seed every case's seeds derive from (default 0)")
      ->check(integerValue(0, UINT64_MAX));
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runPlan(*cmd, g); });
}

}  // namespace kc::driver
