// kcontract obligations FILE... [--json] [--smt2 DIR|-] [-I DIR]: the symbolic obligations of
// each contract, listed, or as SMT-LIB2 scripts (one file per obligation, or all on stdout).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"

namespace kc::driver {

namespace {

struct ObligationsOptions {
  InputOptions in;
  bool json = false;
  std::string smt2;  // "" none, "-" stdout, else a folder
} gObl;

bool inFiles(const SourceRange& r, const std::vector<uint32_t>& files) {
  return std::find(files.begin(), files.end(), r.file) != files.end();
}

nlohmann::json location(const SourceRange& r, const SourceManager& sources) {
  nlohmann::json j;
  j["file"] = sources.has(r.file) ? sources.file(r.file).path() : "";
  j["line"] = r.begin.line;
  j["column"] = r.begin.column;
  j["end_line"] = r.end.line;
  j["end_column"] = r.end.column;
  return j;
}

int runObligations(const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, gObl.in, opts, Stage::Sema, chosen)) return kExitInput;

  obl::BuildOptions bo;
  bo.sources = &c.sources;
  std::vector<obl::Obligation> all;
  std::vector<obl::Skipped> skipped;
  for (const auto& ct : c.program->contracts) {
    if (!inFiles(ct->range, c.fileIds) || !isChosen(chosen, ct->id)) continue;
    obl::ObligationSet set = obl::buildObligationSet(*ct, bo);
    for (auto& o : set.obligations) all.push_back(std::move(o));
    for (auto& s : set.skipped) skipped.push_back(std::move(s));
  }

  if (gObl.smt2 == "-") {
    for (const auto& o : all) std::cout << "; ---- " << o.id << "\n" << o.smt2;
    for (const auto& s : skipped)
      std::cout << "; ---- skipped " << s.id << ": " << s.reason << " (" << obl::locationText(s.range, &c.sources) << ")\n";
    return kExitOk;
  }

  std::map<std::string, std::string> fileOf;  // id -> path written
  if (!gObl.smt2.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(gObl.smt2, ec);
    if (ec) {
      std::cerr << "kcontract: cannot create " << gObl.smt2 << ": " << ec.message() << "\n";
      return kExitInput;
    }
    std::set<std::string> used;
    for (const auto& o : all) {
      std::string base = obl::sanitiseId(o.id);
      std::string name = base + ".smt2";
      for (int n = 2; used.count(name); ++n) name = base + "-" + std::to_string(n) + ".smt2";
      used.insert(name);
      fs::path p = fs::path(gObl.smt2) / name;
      std::ofstream f(p, std::ios::binary);
      f << o.smt2;
      if (!f) {
        std::cerr << "kcontract: cannot write " << p.string() << "\n";
        return kExitInput;
      }
      fileOf[o.id] = p.string();
    }
  }

  if (gObl.json) {
    nlohmann::json out;
    out["obligations"] = nlohmann::json::array();
    for (const auto& o : all) {
      nlohmann::json j;
      j["id"] = o.id;
      j["kind"] = obl::kindName(o.kind);
      j["expected"] = obl::answerName(o.expected);
      j["purpose"] = o.purpose;
      j["location"] = location(o.range, c.sources);
      if (!o.estimate.empty()) j["estimate"] = o.estimate;
      if (fileOf.count(o.id)) j["file"] = fileOf[o.id];
      j["smt2"] = o.smt2;
      out["obligations"].push_back(j);
    }
    out["skipped"] = nlohmann::json::array();
    for (const auto& s : skipped)
      out["skipped"].push_back({{"id", s.id}, {"reason", s.reason}, {"location", location(s.range, c.sources)}});
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
  CLI::App* sub = app.add_subcommand("obligations", "Build the symbolic obligations of contracts, as SMT-LIB2 scripts");
  addInputOptions(sub, gObl.in);
  sub->add_flag("--json", gObl.json, "List the obligations as JSON, scripts included");
  sub->add_option("--smt2", gObl.smt2, "Write one NAME.smt2 per obligation into this folder; '-' prints them all");
  commands.emplace_back(sub, &runObligations);
}

}  // namespace kc::driver
