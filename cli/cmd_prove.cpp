// kcontract prove FILE|ID... [--smt2 DIR] [--timeout S] [--only KIND,...] [--json] [-I DIR]: discharges each
// contract's symbolic obligations with cvc5 (prover/prove.h) and prints, per obligation, its
// answer and verdict, with the counterexample; a summary line, or all of it as JSON.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/cmd_prove_kernel.h"
#include "cli/flag_values.h"
#include "cli/obligation_files.h"
#include "cli/output.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"
#include "prover/prove.h"

namespace kc::driver {

namespace {

using prove::Outcome;
using prove::Verdict;
using prove::findingCode;
using prove::prettyName;
using prove::scriptHeader;
using prove::verdictName;

struct ProveOptions {
  InputOptions in;
  std::string smt2;  // a folder, or "" for none
  double timeout = 10.0;
  std::vector<std::string> only;  // obligation kinds (blind-band-correct, ...); empty: every kind
  bool json = false;
  ProveKernelOptions kernel;  // --kernel: symbolic mode (cmd_prove_kernel.cpp)
};

// The obligation kinds, as --only and the output name them.
std::vector<std::string> kindNames() {
  std::vector<std::string> names;
  for (auto k : {obl::Kind::PreSatisfiable, obl::Kind::IndexWidth31, obl::Kind::IndexWidth32, obl::Kind::Defined,
                 obl::Kind::BlindBandDetect, obl::Kind::BlindBandCorrect, obl::Kind::BlindBandAccumulator,
                 obl::Kind::BlindBandOperand})
    names.emplace_back(obl::kindName(k));
  return names;
}

// Keeps the obligations (and the skipped ones: CONTRACT/KIND/...) of the kinds --only names.
void keepOnly(const std::vector<std::string>& only, std::vector<obl::Obligation>& all,
              std::vector<obl::Skipped>& skipped, std::vector<const sema::ContractInfo*>& owners) {
  if (only.empty()) return;
  auto chosen = [&](const std::string& kind) { return std::find(only.begin(), only.end(), kind) != only.end(); };
  std::vector<obl::Obligation> keptAll;
  std::vector<const sema::ContractInfo*> keptOwners;
  for (size_t i = 0; i < all.size(); ++i)
    if (chosen(obl::kindName(all[i].kind))) {
      keptAll.push_back(std::move(all[i]));
      keptOwners.push_back(owners[i]);
    }
  all = std::move(keptAll);
  owners = std::move(keptOwners);
  skipped.erase(std::remove_if(skipped.begin(), skipped.end(),
                               [&](const obl::Skipped& s) {
                                 size_t a = s.id.find('/'), b = s.id.find('/', a + 1);
                                 return a == std::string::npos || !chosen(s.id.substr(a + 1, b - a - 1));
                               }),
                skipped.end());
}

std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

// --- printing -----------------------------------------------------------------------------------

void printText(const Outcome& out, const Compilation& c, const std::map<std::string, std::string>& fileOf, bool color) {
  const obl::Obligation& o = *out.o;
  std::cout << o.id << "\n";
  std::cout << "  kind: " << obl::kindName(o.kind) << ", expect " << obl::answerName(o.expected) << ", at "
            << obl::locationText(o.range, &c.sources) << "\n";
  std::cout << "  " << o.purpose << "\n";
  if (auto f = fileOf.find(o.id); f != fileOf.end()) std::cout << "  script: " << f->second << "\n";
  std::cout << "  answer: " << smt::answerName(out.result.answer) << " in " << secondsText(out.result.seconds)
            << (out.result.strategy.empty() ? "" : " (" + out.result.strategy + ")") << "\n";
  if (!out.cex.lines.empty()) {
    std::string shape = scriptHeader(o.smt2, "reduced shape");
    // A covered index width is reachable, but fine: what the solver found is a witness.
    std::cout << (out.verdict == Verdict::Covered ? "  witness" : "  counterexample")
              << (shape.empty() ? "" : " at " + shape) << ":\n";
    for (const auto& l : out.cex.lines) std::cout << "    " << l << "\n";
    if (out.cex.more) std::cout << "    ... " << out.cex.more << " more values (--json lists them all)\n";
  }
  std::cout << "  verdict: " << (out.verdict == Verdict::Covered || out.verdict == Verdict::Blind ||
                                          (out.verdict == Verdict::Ok && !out.note.empty())
                                      ? out.note
                                      : verdictName(out.verdict))
            << "\n";
  std::cout.flush();
  if (out.verdict == Verdict::Problem || out.verdict == Verdict::Error || out.verdict == Verdict::NotProven) {
    const char* sev = out.verdict == Verdict::NotProven ? "warning" : "error";
    printLocated(std::cerr, c.sources, o.range, sev, out.note, color, findingCode(o, out.verdict));
    std::cerr.flush();
  }
}

nlohmann::json outcomeJson(const Outcome& out, const Compilation& c, const std::map<std::string, std::string>& fileOf) {
  const obl::Obligation& o = *out.o;
  nlohmann::json j;
  j["id"] = o.id;
  j["kind"] = obl::kindName(o.kind);
  j["expected"] = obl::answerName(o.expected);
  j["answer"] = smt::answerName(out.result.answer);
  if (!out.result.strategy.empty()) j["strategy"] = out.result.strategy;
  j["seconds"] = out.result.seconds;
  j["verdict"] = verdictName(out.verdict);
  j["purpose"] = o.purpose;
  j["location"] = locationJson(o.range, c.sources);
  if (!out.note.empty()) j["message"] = out.note;
  if (out.verdict == Verdict::Problem || out.verdict == Verdict::NotProven || out.verdict == Verdict::Error)
    if (std::string code = findingCode(o, out.verdict); !code.empty()) j["code"] = code;
  if (out.uncertain) j["may_be_spurious"] = true;
  if (!out.result.reason.empty()) j["reason"] = out.result.reason;
  if (auto f = fileOf.find(o.id); f != fileOf.end()) j["file"] = f->second;
  if (!out.result.model.empty()) {
    nlohmann::json model = nlohmann::json::array();
    for (const auto& m : out.result.model) {
      nlohmann::json v{{"name", m.name}, {"display", prettyName(m.name, *out.contract).text}, {"sort", m.sort},
                       {"value", m.value}};
      if (m.approx) v["approx"] = *m.approx;
      model.push_back(v);
    }
    j[out.verdict == Verdict::Ok || out.verdict == Verdict::Covered ? "witness" : "counterexample"] = model;
  }
  return j;
}

int runProve(const ProveOptions& cmd, const GlobalOptions& opts) {
  if (!cmd.kernel.kernel.empty()) {
    if (!cmd.only.empty()) {
      std::cerr << "kcontract prove: --only is for the contract's obligations, not --kernel\n";
      return kExitInput;
    }
    ProveKernelOptions k = cmd.kernel;
    k.timeout = cmd.timeout;
    k.json = cmd.json;
    k.smt2 = cmd.smt2;
    return runProveKernel(k, cmd.in, opts);
  }
  if (!cmd.kernel.dims.empty() || !cmd.kernel.cex.empty() || cmd.kernel.noProbes || cmd.kernel.noIdioms) {
    std::cerr << "kcontract prove: --dims, --cex, --no-probes and --no-idioms need --kernel\n";
    return kExitInput;
  }
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, cmd.in, opts, Stage::Sema, chosen)) return kExitInput;

  std::vector<obl::Obligation> all;
  std::vector<obl::Skipped> skipped;
  std::vector<const sema::ContractInfo*> owners;
  collectObligations(c, chosen, all, skipped, &owners);
  keepOnly(cmd.only, all, skipped, owners);

  std::map<std::string, std::string> fileOf;
  if (!cmd.smt2.empty() && !writeObligationScripts(cmd.smt2, all, fileOf)) return kExitInput;

  bool color = useColor(opts, STDERR_FILENO);
  prove::Options po;
  po.timeout = cmd.timeout;
  prove::Prover prover(po);
  nlohmann::json items = nlohmann::json::array();
  auto start = std::chrono::steady_clock::now();
  size_t timeouts = 0, unknowns = 0;  // the not-proven answers, by why
  for (size_t i = 0; i < all.size(); ++i) {
    Outcome out = prover.prove(all[i], owners[i]);
    if (out.verdict == Verdict::NotProven) ++(out.result.answer == smt::Answer::Timeout ? timeouts : unknowns);
    if (cmd.json)
      items.push_back(outcomeJson(out, c, fileOf));
    else
      printText(out, c, fileOf, color);
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  size_t notProven = prover.count(Verdict::NotProven) + skipped.size();
  int rc = prover.count(Verdict::Error) ? kExitInternal
           : prover.count(Verdict::Problem) || notProven ? kExitFailed
                                                   : kExitOk;
  if (cmd.json) {
    nlohmann::json j;
    j["solver"] = smt::solverVersion();
    j["timeout_s"] = cmd.timeout;
    j["obligations"] = items;
    j["skipped"] = nlohmann::json::array();
    for (const auto& s : skipped)
      j["skipped"].push_back({{"id", s.id}, {"reason", s.reason}, {"location", locationJson(s.range, c.sources)}});
    j["summary"] = {{"obligations", all.size()},     {"ok", prover.count(Verdict::Ok)},
                    {"covered", prover.count(Verdict::Covered)}, {"blind", prover.count(Verdict::Blind)},
                    {"problems", prover.count(Verdict::Problem)},
                    {"not_proven", prover.count(Verdict::NotProven)}, {"skipped", skipped.size()},
                    {"errors", prover.count(Verdict::Error)}, {"seconds", total}, {"exit", rc}};
    std::cout << j.dump(2) << "\n";
    return rc;
  }

  for (const auto& s : skipped)
    std::cout << "skipped " << s.id << " (" << obl::locationText(s.range, &c.sources) << "): " << s.reason << "\n";
  std::cout << "prove: " << all.size() << " obligation" << (all.size() == 1 ? "" : "s") << ": " << prover.count(Verdict::Ok)
            << " ok, " << prover.count(Verdict::Covered) << " covered by the plan, " << prover.count(Verdict::Blind)
            << " blind to one-ulp faults, " << prover.count(Verdict::Problem) << " problem"
            << (prover.count(Verdict::Problem) == 1 ? "" : "s") << ", " << prover.count(Verdict::NotProven) << " not proven, "
            << skipped.size() << " skipped, " << prover.count(Verdict::Error) << " error"
            << (prover.count(Verdict::Error) == 1 ? "" : "s") << " in " << secondsText(total) << "\n";
  std::cout.flush();
  // Each reason with its own remedy: only a timeout is helped by a longer --timeout.
  if (notProven) {
    auto count = [](size_t n, const std::string& what) { return std::to_string(n) + " " + what; };
    std::vector<std::string> why;
    if (!skipped.empty())
      why.push_back(count(skipped.size(), "skipped (not built: the reason is on its 'skipped' line)"));
    if (timeouts) why.push_back(count(timeouts, "timed out (a timeout is not a pass: raise --timeout or simplify the contract)"));
    if (unknowns) why.push_back(count(unknowns, "answered unknown by the solver"));
    std::string list;
    for (size_t i = 0; i < why.size(); ++i) list += (i ? "; " : "") + why[i];
    std::cerr << "kcontract: not proven: " << notProven << " obligation" << (notProven == 1 ? "" : "s") << ": " << list << "\n";
  }
  return rc;
}

}  // namespace

void addProveCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<ProveOptions>();
  CLI::App* sub = app.add_subcommand("prove", "Discharge the symbolic obligations of contracts with cvc5");
  addInputOptions(sub, cmd->in);
  sub->add_option("--smt2", cmd->smt2, "Also write one NAME.smt2 per obligation into this folder");
  sub->add_option("--timeout", cmd->timeout, "Seconds each query may run (default 10); a timeout is not a pass")
      ->check(secondsValue());
  std::string kinds;
  for (const auto& k : kindNames()) kinds += (kinds.empty() ? "" : ", ") + k;
  sub->add_option("--only", cmd->only, "Discharge only the obligations of these kinds (comma-separated or repeated): " + kinds)
      ->expected(1)
      ->allow_extra_args(false)  // one value per --only: the contracts after it stay positionals
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::IsMember(kindNames()));
  sub->add_flag("--json", cmd->json, "Print the answers as JSON");
  sub->add_option("--kernel", cmd->kernel.kernel,
                  "Symbolic mode: hold this CUDA kernel (.cu) to the contract for all inputs at a reduced shape "
                  "(docs/ptx.md, \"Symbolic mode\")");
  sub->add_option("--dims", cmd->kernel.dims, "With --kernel: the shape, NAME=N comma-separated (default: small dims)");
  sub->add_option("--dtype", cmd->kernel.dtype, "With --kernel: the dtype of every dtype variable (f32 only)");
  sub->add_option("--cex", cmd->kernel.cex,
                  "With --kernel: where a counterexample is written (default KERNEL.CONTRACT.cex.json here)");
  sub->add_flag("--no-probes", cmd->kernel.noProbes,
                "With --kernel: when the solver has no answer, no concrete probes (fixed input patterns run on the ptx "
                "backend)");
  sub->add_flag("--no-idioms", cmd->kernel.noIdioms,
                "With --kernel: every f32 rounding its own constant, no summation idioms (docs/ptx.md, \"Idiom templates\")");
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runProve(*cmd, g); });
}

}  // namespace kc::driver
