// kcontract merge FILE.jsonl... [--format F] [--out FILE] [--replace]: the results of shards
// or resumed runs, verified, deduplicated and written as one report (docs/scale.md).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "checker/merge.h"
#include "checker/report/format.h"
#include "checker/report/summary.h"
#include "checker/report/text.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "stdlib/data_root.h"

namespace kc::driver {

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string format = "jsonl";
  std::string out;
  bool replace = false;
};

int fail(const std::string& message) {
  std::cerr << "kcontract merge: " << message << "\n";
  return kExitInput;
}

int runMerge(const MergeOptions& o, const GlobalOptions& opts) {
  const report::ReportFormat* format = report::findReportFormat(o.format);
  if (!format) return fail("--format is " + report::reportFormatList() + "; not '" + o.format + "'");
  std::vector<check::ResultsFile> files;
  for (const std::string& path : o.files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail("cannot read '" + path + "'");
    files.push_back({path, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())});
    if (in.bad()) return fail("cannot read '" + path + "'");
  }
  check::Merged m = check::mergeResults(files);
  if (!m.error.empty()) return fail(m.error);
  for (const std::string& note : m.notes) std::cerr << "kcontract merge: " << note << "\n";
  if (m.results.empty()) return fail("no results in " + std::string(files.size() == 1 ? "the file" : "any of the files") + ": nothing to merge");
  // Merge has no --resume: the one choice for a file that exists is to write it afresh.
  if (!o.out.empty() && !o.replace && std::filesystem::exists(o.out))
    return fail("'" + o.out + "' exists already; add --replace to overwrite it");

  report::ReportWriter writer(*format, o.out, o.replace ? report::OutMode::Replace : report::OutMode::Create);
  std::string error;
  if (!writer.open(error)) return fail(error);
  for (const report::CaseResult& r : m.results) writer.add(r);  // a streamed format: sealed afresh
  if (writer.wantsText()) {
    writer.text() << "merged " << m.records << " records of " << files.size() << (files.size() == 1 ? " file" : " files")
                  << " into " << m.results.size() << " results (" << m.duplicates
                  << (m.duplicates == 1 ? " duplicate" : " duplicates") << " dropped)\n\n"
                  << report::summaryTable(m.results, writer.textToConsole() && useColor(opts, 1));
  }
  if (!writer.finish(m.results, {std::string(kToolVersion), "", stdlib::dataRoot().path, {}}, error)) return fail(error);
  return report::anyViolation(m.results) ? kExitFailed : kExitOk;
}

}  // namespace

void addMergeCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Merge the JSON Lines results of shards or resumed runs into one verified, deduplicated report");
  cmd->add_option("files", o->files, "JSON Lines results files (check --format jsonl --out FILE)")->required();
  cmd->add_option("--format", o->format, "The merged report: " + report::reportFormatList() + " (default jsonl)");
  cmd->add_option("--out", o->out, "Write it to this file (the text summary still goes to stdout)");
  cmd->add_flag("--replace", o->replace, "With --out: overwrite the file when it exists");
  commands.emplace_back(cmd, [o](const GlobalOptions& g) { return runMerge(*o, g); });
}

}  // namespace kc::driver
