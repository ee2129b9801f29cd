// kcontract catalog [--format md|json] [--out FILE]   the standard contract classes, for docs/
// kcontract explain ID [-I DIR]                       one contract, class or op and what it guards against
// kcontract ops [-I DIR] [--format text|md] [--out FILE] [--kernelbench FILE]
//                                                     the standard ops and their newest contracts;
//                                                     md: the generated part of docs/ops.md
// Both read the shipped contracts/ folder: the classes (their rationale is the comment block
// directly above each), contracts/calibration.yaml (the calibration pairs) and
// contracts/incidents/*.md (the incidents that cite a class).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <nlohmann/json.hpp>

#include "checker/catalog.h"
#include "checker/kernelbench_table.h"
#include "checker/ops_doc.h"
#include "stdlib/data_root.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "compiler/targets.h"

namespace kc::driver {

namespace {

// check::loadCatalog, with the diagnostics and any error printed.
bool loadCatalog(check::Catalog& cat, const std::vector<std::string>& includeDirs, const GlobalOptions& opts,
                 bool everything = false) {
  std::string error;
  bool ok = check::loadCatalog(cat, includeDirs, opts.warningsAsErrors, error, everything);
  printDiagnostics(cat.c.diags, opts);
  if (!error.empty()) std::cerr << error << "\n";
  return ok;
}

struct CatalogOptions {
  std::string format = "md";
  std::string out;
  std::vector<std::string> includeDirs;
  std::string id;
  std::string opsFormat = "text";  // ops --format
  std::string kernelbench;  // ops --format md: the KernelBench level-1 table
};

int runCatalog(const CatalogOptions& cmd, const GlobalOptions& opts) {
  if (cmd.format != "md" && cmd.format != "json") {
    std::cerr << "kcontract catalog: --format is md or json; not '" << cmd.format << "'\n";
    return kExitInput;
  }
  check::Catalog cat;
  if (!loadCatalog(cat, cmd.includeDirs, opts)) return kExitInput;
  std::string doc;
  if (cmd.format == "md") {
    doc = check::catalogMarkdown(cat);
  } else {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& e : cat.entries) j.push_back(check::catalogEntryJson(e));
    doc = j.dump(2) + "\n";
  }
  if (cmd.out.empty()) {
    std::cout << doc;
    return kExitOk;
  }
  if (!replaceFile(cmd.out, doc)) {
    std::cerr << "kcontract catalog: cannot write '" << cmd.out << "'\n";
    return kExitInput;
  }
  return kExitOk;
}

int runExplain(const CatalogOptions& cmd, const GlobalOptions& opts) {
  check::Catalog cat;
  if (!loadCatalog(cat, cmd.includeDirs, opts, true)) return kExitInput;
  const check::Entry* found = check::findEntry(cat, cmd.id);
  if (!found) {
    std::cerr << "kcontract explain: no class, contract or op '" << cmd.id
              << "' in contracts/, stdlib/ops/ or the -I folders (kcontract catalog lists the classes, kcontract ops "
                 "the ops)\n";
    return kExitInput;
  }
  const check::Entry& e = *found;
  std::cout << e.info->id << " — " << e.info->title << "\n"
            << (e.info->isClass ? "class" : "contract") << ", " << e.file << ":" << e.line << "\n\n";
  if (!e.rationale.empty()) std::cout << "What it guards against:\n  " << e.rationale << "\n\n";
  std::cout << check::trimRight(e.source) << "\n\n";
  if (!e.info->applies.empty()) {
    std::cout << "Applies:\n";
    for (const auto& id : e.info->applies) {
      const sema::ContractInfo* cls = cat.c.program->contract(id);
      std::cout << "  " << id << (cls ? " — " + cls->title : "") << "\n";
    }
    std::cout << "\n";
  }
  std::cout << "Signatures: " << check::signaturesOf(e) << "\n";
  for (const auto* m : e.calibration) std::cout << "Calibration: " << check::calibrationLine(*m) << "\n";
  if (e.calibration.empty() && e.info->isClass) std::cout << "Calibration: none\n";
  for (const auto* inc : e.incidents) std::cout << "Incident: " << inc->title << " (" << inc->path << ")\n";
  return kExitOk;
}

// The generated part of docs/ops.md: the op table and the KernelBench level-1 table, after
// the table is held against the library. With --out, spliced between the page's markers.
int runOpsMarkdown(const CatalogOptions& cmd, const check::Catalog& cat, const std::vector<std::string>& ops) {
  const std::string path =
      cmd.kernelbench.empty() ? stdlib::dataDir() + "/stdlib/ops/kernelbench_level1.yaml" : cmd.kernelbench;
  check::KernelBenchTable table;
  try {
    table = check::loadKernelBenchTable(path);
  } catch (const check::SuiteError& e) {
    std::cerr << "kcontract ops: " << e.what() << "\n";
    return kExitInput;
  }
  std::vector<std::string> disagreements = check::checkAgainstLibrary(table, cat);
  for (const auto& d : disagreements) std::cerr << "kcontract ops: " << d << "\n";
  if (!disagreements.empty()) {
    std::cerr << "kcontract ops: the KernelBench table disagrees with the library in " << disagreements.size()
              << " place" << (disagreements.size() == 1 ? "" : "s") << "; nothing written\n";
    return kExitInput;
  }
  std::string block = check::opsMarkdown(cat, ops, table);
  if (cmd.out.empty()) {
    std::cout << block;
    return kExitOk;
  }
  std::ifstream in(cmd.out);
  if (!in) {
    std::cerr << "kcontract ops: cannot read '" << cmd.out << "' (--out names the page to update: docs/ops.md)\n";
    return kExitInput;
  }
  std::stringstream page;
  page << in.rdbuf();
  std::string updated, error;
  if (!check::spliceOpsDoc(page.str(), block, updated, error)) {
    std::cerr << "kcontract ops: " << cmd.out << ": " << error << "\n";
    return kExitInput;
  }
  if (!replaceFile(cmd.out, updated)) {
    std::cerr << "kcontract ops: cannot write '" << cmd.out << "'\n";
    return kExitInput;
  }
  return kExitOk;
}

// One line per standard op: its name, its newest standard contract and that contract's title.
int runOps(const CatalogOptions& cmd, const GlobalOptions& opts) {
  if (cmd.opsFormat != "text" && cmd.opsFormat != "md") {
    std::cerr << "kcontract ops: --format is text or md; not '" << cmd.opsFormat << "'\n";
    return kExitInput;
  }
  if (cmd.opsFormat == "text" && (!cmd.out.empty() || !cmd.kernelbench.empty())) {
    std::cerr << "kcontract ops: --out and --kernelbench go with --format md\n";
    return kExitInput;
  }
  check::Catalog cat;
  if (!loadCatalog(cat, cmd.includeDirs, opts, true)) return kExitInput;
  std::vector<std::string> names;
  std::vector<const check::Entry*> newest;
  for (const std::string& name : standardOps(cmd.includeDirs))
    if (const check::Entry* e = check::findEntry(cat, "std.op." + name)) {
      newest.push_back(e);
      names.push_back(name);
    }
  if (cmd.opsFormat == "md") return runOpsMarkdown(cmd, cat, names);
  size_t wName = 2, wId = 8;
  for (const auto* e : newest) {
    wName = std::max(wName, e->info->id.find('@') - 7);
    wId = std::max(wId, e->info->id.size());
  }
  auto pad = [](const std::string& x, size_t w) { return x + std::string(w > x.size() ? w - x.size() : 0, ' '); };
  std::cout << pad("op", wName) << "  " << pad("contract", wId) << "  title\n";
  for (const auto* e : newest)
    std::cout << pad(e->info->id.substr(7, e->info->id.find('@') - 7), wName) << "  " << pad(e->info->id, wId) << "  "
              << e->info->title << "\n";
  std::cout << newest.size() << " standard ops; `kcontract explain OP` prints one, `kcontract check --op OP` checks a "
               "kernel against it\n";
  return kExitOk;
}

}  // namespace

void addCatalogCommands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<CatalogOptions>();
  CLI::App* cat = app.add_subcommand("catalog", "The standard contract classes, for docs/catalog.md");
  cat->add_option("--format", cmd->format, "md (default) or json");
  cat->add_option("--out", cmd->out, "Write to this file instead of stdout");
  commands.emplace_back(cat, [cmd](const GlobalOptions& g) { return runCatalog(*cmd, g); });
  CLI::App* ex = app.add_subcommand("explain", "Print one standard contract or class and what it guards against");
  ex->add_option("id", cmd->id, "A class or contract ID (the @N may be left out: the newest), or an op (rmsnorm)")
      ->required();
  ex->add_option("-I,--include", cmd->includeDirs, "Also look in the .kcontract files under this folder (repeatable)");
  commands.emplace_back(ex, [cmd](const GlobalOptions& g) { return runExplain(*cmd, g); });
  CLI::App* ops = app.add_subcommand("ops", "List the standard ops and their newest contracts (what check --op takes)");
  ops->add_option("-I,--include", cmd->includeDirs, "Also the ops declared under this folder (repeatable)");
  ops->add_option("--format", cmd->opsFormat, "text (default): one line per op; md: the generated part of docs/ops.md");
  ops->add_option("--out", cmd->out, "With --format md: the page whose generated part is replaced (docs/ops.md)");
  ops->add_option("--kernelbench", cmd->kernelbench,
                  "With --format md: the KernelBench level-1 table (default: stdlib/ops/kernelbench_level1.yaml)");
  commands.emplace_back(ops, [cmd](const GlobalOptions& g) { return runOps(*cmd, g); });
}

}  // namespace kc::driver
