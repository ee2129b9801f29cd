// kcontract plan FILE|ID... [--json] [--seed N] [-I DIR]: the measurement plan of every contract
// declared in the files, deterministic for a given seed.
#include <CLI/CLI.hpp>
#include <iostream>

#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

namespace {

struct PlanOptions {
  InputOptions in;
  bool json = false;
  uint64_t seed = 0;
} gPlan;

int runPlan(const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, gPlan.in, opts, Stage::Sema, chosen)) return kExitInput;
  plan::Options po;
  po.seed = gPlan.seed;
  std::vector<plan::Plan> plans;
  for (plan::Plan& p : plan::planProgram(*c.program, c.fileIds, po))
    if (isChosen(chosen, p.contract)) plans.push_back(std::move(p));
  std::cout << (gPlan.json ? plan::plansJson(plans) : plan::plansText(plans));
  return kExitOk;
}

}  // namespace

void addPlanCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("plan", "Print the measurement plan of each contract: its cases, deterministic for a seed");
  addInputOptions(sub, gPlan.in);
  sub->add_flag("--json", gPlan.json, "Print the plans as JSON");
  sub->add_option("--seed", gPlan.seed, "The base seed every case's seeds derive from (default 0)");
  commands.emplace_back(sub, &runPlan);
}

}  // namespace kc::driver
