// kcontract incident RESULTS.jsonl --case ID [--kernel K] [--notes FILE] [--out FILE.md]:
// a Markdown incident report of one failing case of a results file (docs/checking.md,
// "Incident reports"). Reads what the check wrote; runs no kernel.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "checker/incident.h"
#include "checker/report/chain.h"
#include "checker/report/jsonl.h"
#include "checker/repro.h"
#include "cli/cli.h"
#include "cli/output.h"

namespace kc::driver {

namespace {

struct IncidentOptions {
  std::string results, caseId, kernel, notes, out;
  bool replace = false;
};

int fail(const std::string& message) {
  std::cerr << "kcontract incident: " << message << "\n";
  return kExitInput;
}

bool readFile(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

// Whether the record is the case asked for: its id (acme.softmax.rows@1#20) or its number (20),
// and with --kernel its PATH:ENTRY, its path or its suite name.
bool wanted(const report::CaseResult& r, const IncidentOptions& o) {
  if (r.caseId != o.caseId && std::to_string(r.number) != o.caseId) return false;
  if (o.kernel.empty()) return true;
  return r.kernel == o.kernel || r.kernel.substr(0, r.kernel.rfind(':')) == o.kernel || r.name == o.kernel;
}

int runIncident(const IncidentOptions& o) {
  std::string text;
  if (!readFile(o.results, text)) return fail("cannot read '" + o.results + "'");
  report::VerifiedResults v = report::verifyResults(text);
  if (!v.tampered.empty())
    return fail(o.results + ":" + v.tampered + "; the file was changed after kcontract wrote it: no report cites it");
  std::vector<report::CaseResult> found;
  for (size_t i = 0; i < v.records.size(); ++i) {
    std::string error;
    auto r = report::parseCaseJson(v.records[i], error);
    if (!r) return fail(o.results + ":" + std::to_string(v.lines[i]) + ": not a result (" + error + ")");
    if (wanted(*r, o)) found.push_back(*r);
  }
  if (found.empty())
    return fail("no case '" + o.caseId + "'" + (o.kernel.empty() ? "" : " of kernel '" + o.kernel + "'") + " in " + o.results);
  if (found.size() > 1) {
    std::string which;
    for (const auto& r : found) which += "\n  " + r.kernel + (r.name.empty() ? "" : " (" + r.name + ")") + ", " + r.backend;
    return fail("case '" + o.caseId + "' is in " + o.results + " " + std::to_string(found.size()) +
                " times; name the kernel with --kernel:" + which);
  }
  const report::CaseResult& r = found.front();
  if (!report::isViolation(r.verdict))
    return fail("case " + r.caseId + " is " + std::string(report::verdictName(r.verdict)) +
                ": an incident report cites a case that counts against the kernel (FAIL, CRASH, TIMEOUT, ERROR)");

  check::IncidentInput in;
  in.result = r;
  if (!o.notes.empty() && !readFile(o.notes, in.notes)) return fail("cannot read '" + o.notes + "'");
  // Paths as the check saw them, from the folder it ran in (the reproducer's dir=).
  std::string error, dir;
  if (auto rp = check::parseRepro(r.repro, error)) dir = rp->dir;
  std::string contractFile = r.contractFile;
  if (!dir.empty() && !contractFile.empty() && contractFile[0] != '/') contractFile = (std::filesystem::path(dir) / contractFile).string();
  std::string kernelPath = r.kernel.substr(0, r.kernel.rfind(':'));
  if (!dir.empty() && !kernelPath.empty() && kernelPath[0] != '/') kernelPath = (std::filesystem::path(dir) / kernelPath).string();
  error.clear();
  in.contractText = check::declarationText(contractFile, r.contractLine, error);
  std::string top = check::gitTopLevel(kernelPath);
  std::string shown = r.contractFile;
  if (!top.empty()) {
    auto rel = std::filesystem::path(contractFile).lexically_normal().lexically_relative(top);
    if (!rel.empty() && *rel.begin() != "..") shown = rel.string();
  }
  in.contractWhere = "`" + shown + ":" + std::to_string(r.contractLine) + "`" + (error.empty() ? "" : " (its text: " + error + ")");
  in.replay = r.repro.empty() ? "(the results file holds no reproducer for this case)" : check::shareableRepro(r.repro, in.replayFrom);
  if (in.replayFrom.empty()) in.replayFrom = "the folder the check ran in";
  in.env = check::gatherEnvironment(kToolVersion, kernelPath);
  std::string md = check::incidentMarkdown(in);

  if (o.out.empty()) {
    std::cout << md;
    return kExitOk;
  }
  if (std::filesystem::exists(o.out) && !o.replace)
    return fail("'" + o.out + "' exists; give --replace to write it afresh");
  if (!replaceFile(o.out, md)) return fail("cannot write '" + o.out + "'");
  return kExitOk;
}

}  // namespace

void addIncidentCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<IncidentOptions>();
  CLI::App* cmd = app.add_subcommand("incident", "Write a Markdown incident report of one failing case of a results file");
  cmd->add_option("results", o->results, "A JSON Lines results file (check --format jsonl --out FILE)")->required();
  cmd->add_option("--case", o->caseId, "The case: its id (acme.softmax.rows@1#20) or number (20)")->required();
  cmd->add_option("--kernel", o->kernel, "The kernel, when the file holds the case for several (PATH, PATH:ENTRY or suite name)");
  cmd->add_option("--notes", o->notes, "Markdown put first, its title included: what happened, why allclose misses it");
  cmd->add_option("--out", o->out, "Write the report to this file instead of stdout");
  cmd->add_flag("--replace", o->replace, "Write --out afresh when it exists");
  commands.emplace_back(cmd, [o](const GlobalOptions&) { return runIncident(*o); });
}

}  // namespace kc::driver
