// kcontract obligations FILE... [--json] [--smt2 DIR|-] [-I DIR]: the symbolic obligations of
// each contract, listed, or as SMT-LIB2 scripts (one file per obligation, or all on stdout).
#include <CLI/CLI.hpp>
#include <memory>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/obligation_files.h"
#include "cli/output.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"

namespace kc::driver {

namespace {

struct ObligationsOptions {
  InputOptions in;
  bool json = false;
  std::string smt2;  // "" none, "-" stdout, else a folder
};

int runObligations(const ObligationsOptions& cmd, const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, cmd.in, opts, Stage::Sema, chosen)) return kExitInput;

  std::vector<obl::Obligation> all;
  std::vector<obl::Skipped> skipped;
  collectObligations(c, chosen, all, skipped);

  if (cmd.smt2 == "-") {
    for (const auto& o : all) std::cout << "; ---- " << o.id << "\n" << o.smt2;
    for (const auto& s : skipped)
      std::cout << "; ---- skipped " << s.id << ": " << s.reason << " (" << obl::locationText(s.range, &c.sources) << ")\n";
    return kExitOk;
  }

  std::map<std::string, std::string> fileOf;  // id -> path written
  if (!cmd.smt2.empty() && !writeObligationScripts(cmd.smt2, all, fileOf)) return kExitInput;

  if (cmd.json) {
    nlohmann::json out;
    out["obligations"] = nlohmann::json::array();
    for (const auto& o : all) {
      nlohmann::json j;
      j["id"] = o.id;
      j["kind"] = obl::kindName(o.kind);
      j["expected"] = obl::answerName(o.expected);
      j["purpose"] = o.purpose;
      j["location"] = locationJson(o.range, c.sources);
      if (!o.estimate.empty()) j["estimate"] = o.estimate;
      if (fileOf.count(o.id)) j["file"] = fileOf[o.id];
      j["smt2"] = o.smt2;
      out["obligations"].push_back(j);
    }
    out["skipped"] = nlohmann::json::array();
    for (const auto& s : skipped)
      out["skipped"].push_back({{"id", s.id}, {"reason", s.reason}, {"location", locationJson(s.range, c.sources)}});
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }

  for (const auto& o : all) {
    std::cout << o.id << "\n";
    std::cout << "  kind: " << obl::kindName(o.kind) << ", expect " << obl::answerName(o.expected) << ", at "
              << obl::locationText(o.range, &c.sources) << "\n";
    std::cout << "  " << o.purpose << "\n";
    if (!o.estimate.empty()) std::cout << "  estimate: " << o.estimate << "\n";
    if (fileOf.count(o.id)) std::cout << "  script: " << fileOf[o.id] << "\n";
  }
  for (const auto& s : skipped)
    std::cout << "skipped " << s.id << " (" << obl::locationText(s.range, &c.sources) << "): " << s.reason << "\n";
  return kExitOk;
}

}  // namespace

void addObligationsCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<ObligationsOptions>();
  CLI::App* sub = app.add_subcommand("obligations", "Build the symbolic obligations of contracts, as SMT-LIB2 scripts");
  addInputOptions(sub, cmd->in);
  sub->add_flag("--json", cmd->json, "List the obligations as JSON, scripts included");
  sub->add_option("--smt2", cmd->smt2, "Write one NAME.smt2 per obligation into this folder; '-' prints them all");
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runObligations(*cmd, g); });
}

}  // namespace kc::driver
