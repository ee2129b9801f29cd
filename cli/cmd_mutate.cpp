// kcontract mutate KERNEL[:ENTRY] (--op NAME | CONTRACT...) [--backend B] [--format text|json|html] [--jobs N]
// Mutation analysis of a contract (mutate/pipeline.h, docs/mutate.md): the kernel's mutants,
// the kill matrix of the contract over them, the naming matrix, and the plain allclose
// baseline on the same mutants. Parses the flags, calls the pipeline, prints its report.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/cli.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "mutate/operators.h"
#include "mutate/pipeline.h"
#include "mutate/report.h"
#include "sandbox/mode.h"

namespace kc::driver {

namespace {

struct MutateCliOptions {
  std::string kernel;
  mutate::MutateOptions m;
  std::string format = "text";
  std::string out;
  std::string dims;
  std::string maxMemory;
  std::string operators;  // comma-separated
  double minScore = -1;   // --min-score PCT
  bool noBaseline = false;
  bool noSuggest = false;
  bool progress = false;  // --progress: each finished mutant's line on stderr as it finishes
  std::string naming = "diagnosis";
};

int usage(const std::string& message) {
  std::cerr << "kcontract mutate: " << message << "\n";
  return kExitInput;
}

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int runMutate(MutateCliOptions o, const GlobalOptions& opts) {
  if (!mutate::isReportFormat(o.format)) return usage("--format is text, json or html; not '" + o.format + "'");
  if (o.m.jobs.op.empty() && o.m.jobs.targets.empty())
    return usage("give the contract: --op NAME (the op's standard contract) or contract files or IDs after the kernel");
  if (!o.dims.empty())
    if (std::string why = parseDims(o.dims, o.m.run.narrow.dims); !why.empty()) return usage(why);
  if (!o.maxMemory.empty() && !parseBytes(o.maxMemory, o.m.run.maxCaseBytes))
    return usage("--max-memory is a size such as 512M or 4G (1 byte to 1024T); not '" + o.maxMemory + "'");
  o.m.operators = commaList(o.operators);
  if (!o.m.emit.empty() && !o.m.from.empty()) return usage("--emit and --from exclude each other");
  o.m.baseline = !o.noBaseline;
  o.m.suggest = !o.noSuggest;
  if (o.naming != "diagnosis" && o.naming != "signatures")
    return usage("--naming is diagnosis or signatures; not '" + o.naming + "'");
  o.m.naming = o.naming == "diagnosis" ? mutate::Naming::Diagnosis : mutate::Naming::Signatures;
  o.m.jobs.impl = o.kernel;
  try {
    sandbox::requireLayers();
  } catch (const std::exception& e) {
    std::cerr << "kcontract: " << e.what() << "\n";
    return kExitInput;
  }

  Compilation c;
  mutate::MutationReport report;
  mutate::MutateError error;
  // With --progress a run cut short (a time limit, a kill) still leaves every finished
  // mutant's outcome behind: stderr is unbuffered.
  mutate::MutantDone progress;
  if (o.progress)
    progress = [](const mutate::MutantResult& m, size_t done, size_t total) {
      std::cerr << "[" << done << "/" << total << "] " << mutate::mutantLine(m) << std::endl;
    };
  bool ok = mutate::runMutation(c, o.m, opts.warningsAsErrors, report, error, progress);
  printDiagnostics(c.diags, opts);
  if (!error.message.empty()) std::cerr << (error.located ? "" : "kcontract mutate: ") << error.message << "\n";
  if (!ok) return kExitInput;

  std::ofstream file;
  if (!o.out.empty()) {
    file.open(o.out);
    if (!file) return usage("cannot write '" + o.out + "'");
  }
  std::ostream& out = o.out.empty() ? std::cout : file;
  if (o.format == "json") mutate::writeJson(out, report);
  else if (o.format == "html") mutate::writeHtml(out, report);
  else mutate::writeText(out, report, true);
  // With --out, the score lines still go to the terminal.
  if (!o.out.empty() && !report.listOnly) mutate::writeScores(std::cout, report);
  if (report.listOnly) return kExitOk;
  if (report.originalKills) return kExitFailed;
  const mutate::FamilyScore& t = report.total();
  if (o.minScore >= 0 && t.scored > 0 && 100.0 * static_cast<double>(t.killed) / static_cast<double>(t.scored) < o.minScore) {
    std::cout << "mutate: the score is below --min-score " << o.minScore << "%\n";
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace

void addMutateCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto o = std::make_shared<MutateCliOptions>();
  CLI::App* sub = app.add_subcommand("mutate", "Mutation analysis: what a contract kills of a kernel's mutants, and what it names");
  sub->add_option("kernel", o->kernel, "The kernel to mutate: PATH[:ENTRY] (.c, .cpp, .cu, .cl)")->required();
  sub->add_option("contracts", o->m.jobs.targets, "Contract files or IDs the mutants are held to (or --op)");
  sub->add_option("--op", o->m.jobs.op, "Hold the mutants to this op's standard contract (std.op.NAME)");
  sub->add_option("-I,--include", o->m.jobs.includeDirs, "Another folder to search for imports, contract IDs and the kernel's headers");
  sub->add_option("--backend", o->m.jobs.backend, "host (default), cuda, opencl or exec");
  sub->add_option("--format", o->format, "text (default), json or html");
  sub->add_option("--out", o->out, "Write the report to this file (the score lines still go to stdout)");
  sub->add_option("--jobs", o->m.parallel, "Mutants run at once (default 1)")->check(integerValue(1, 256));
  sub->add_option("--operators", o->operators, "Only these mutation operators, comma-separated (docs/mutate.md lists them)");
  sub->add_option("--mutant", o->m.only, "Only this mutant (its id, as --list prints it); repeatable");
  sub->add_flag("--list", o->m.listOnly, "Print the mutants and their diffs; run nothing");
  sub->add_option("--emit", o->m.emit, "Write the mutants to this mutant set (JSON) and run nothing: for a machine without libclang, which runs them with --from");
  sub->add_option("--from", o->m.from, "Run the mutants of this mutant set (written by --emit from the same kernel text) instead of parsing the kernel");
  sub->add_flag("--no-baseline", o->noBaseline, "Skip the allclose baseline");
  sub->add_option("--naming", o->naming, "How a killed mutant is named: diagnosis (default: the diagnosis's primary cause, as check reports it) or signatures (any signature one failing case matched)");
  sub->add_flag("--progress", o->progress,
                "Print each mutant's line on stderr as it finishes (a run cut short keeps what finished)");
  sub->add_flag("--no-suggest", o->noSuggest, "Skip the suggest stage (plan changes that would kill each surviving mutant, checked by re-running)");
  sub->add_option("--min-score", o->minScore, "Exit 1 when the contract kills less than this percentage of the scored mutants")
      ->check(CLI::Range(0.0, 100.0));
  sub->add_option("--dtype", o->m.run.dtype, "Run only the cases at this dtype (as check --dtype)");
  sub->add_option("--dims", o->dims, "Run only the cases whose dims are in these ranges (as check --dims): R=1..64,H=32");
  sub->add_option("--max-memory", o->maxMemory, "Host memory a case may use (as check --max-memory); larger cases are SKIPPED: a smaller plan, sooner");
  sub->add_option("--seed", o->m.run.seed, "The base seed of every plan (default 0)")->check(integerValue(0, UINT64_MAX));
  o->m.run.timeoutSeconds = 5;
  sub->add_option("--timeout", o->m.run.timeoutSeconds, "Seconds one run of a case may take before it is killed (default 5)")
      ->check(secondsValue());
  commands.emplace_back(sub, [o](const GlobalOptions& g) { return runMutate(*o, g); });
}

}  // namespace kc::driver
