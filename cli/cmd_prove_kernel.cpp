// kcontract prove CONTRACT --kernel K.cu [--dims N=v,...] [--dtype f32] [--timeout S] [--cex FILE]
// [--smt2 DIR] [--json]: the kernel's PTX executed symbolically at a reduced shape and held to
// the contract through cvc5 (prover/kernel/kernel_prove.h, docs/ptx.md "Symbolic mode"). A
// refutation's inputs are written as a file `kcontract replay --inputs` runs, and confirmed
// on the ptx backend before the answer is REFUTED.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checker/jobs.h"
#include "cli/cmd_prove_kernel.h"
#include "cli/replay_inputs.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"
#include "prover/kernel/concrete_probes.h"
#include "prover/kernel/kernel_prove.h"

namespace kc::driver {

namespace fs = std::filesystem;

namespace {

// ", 1 summation idiom for 66 roundings" ("" when none).
std::string sumsText(const kprove::Result& r) {
  if (r.sums == 0) return "";
  return ", " + std::to_string(r.sums) + " summation idiom" + (r.sums == 1 ? "" : "s") + " for " +
         std::to_string(r.roundingsInSums) + " of them";
}

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f s", s);
  return b;
}

// "M=2,K=7" -> pairs; "" when it parses, else what is wrong.
std::string parseDimValues(const std::string& text, std::vector<std::pair<std::string, int64_t>>& out) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return "--dims wants NAME=N, comma-separated (M=2,K=7); not '" + item + "'";
    try {
      size_t used = 0;
      long long v = std::stoll(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1 || v < 0) throw std::invalid_argument("");
      out.emplace_back(item.substr(0, eq), v);
    } catch (const std::exception&) {
      return "--dims wants a nonnegative integer for " + item.substr(0, eq) + "; not '" + item.substr(eq + 1) + "'";
    }
    start = end + 1;
  }
  return "";
}

// The first line of a case's report, without its run time: "FAIL std.cal.scale@1#11 N=2 ...".
std::string caseSummary(const std::string& line) {
  std::string first = line.substr(0, line.find('\n')), out;
  for (char ch : first)
    if (ch != ' ' || (!out.empty() && out.back() != ' ')) out += ch;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 2 && out.compare(out.size() - 2, 2, " s") == 0) {
    out.resize(out.size() - 2);
    size_t sp = out.rfind(' ');
    if (sp != std::string::npos) out.resize(sp);
  }
  return out;
}

std::string sanitise(const std::string& s) {
  std::string r;
  for (char ch : s) r += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '_') ? ch : '_';
  return r;
}

}  // namespace

int runProveKernel(const ProveKernelOptions& cmd, const InputOptions& in, const GlobalOptions& opts) {
  std::error_code ec;
  if (!fs::is_regular_file(cmd.kernel, ec)) {
    std::cerr << "kcontract prove: --kernel: no such file '" << cmd.kernel << "'\n";
    return kExitInput;
  }
  if (fs::path(cmd.kernel).extension() != ".cu") {
    std::cerr << "kcontract prove: --kernel wants a CUDA source (.cu); not '" << cmd.kernel << "'\n";
    return kExitInput;
  }
  if (cmd.dtype != "f32") {
    std::cerr << "kcontract prove: --kernel models f32 only; not --dtype " << cmd.dtype << "\n";
    return kExitInput;
  }
  std::vector<std::pair<std::string, int64_t>> dims;
  if (std::string why = parseDimValues(cmd.dims, dims); !why.empty()) {
    std::cerr << "kcontract prove: " << why << "\n";
    return kExitInput;
  }
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, in, opts, Stage::Sema, chosen)) return kExitInput;
  std::vector<const sema::ContractInfo*> contracts;
  for (const auto& ct : c.program->contracts)
    if (!ct->isClass && ct->kernel && std::find(c.fileIds.begin(), c.fileIds.end(), ct->range.file) != c.fileIds.end() &&
        isChosen(chosen, ct->id))
      contracts.push_back(ct.get());
  if (contracts.empty()) {
    std::cerr << "kcontract prove: --kernel: the targets hold no contract with a kernel\n";
    return kExitInput;
  }
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  int rc = kExitOk;
  for (const sema::ContractInfo* ct : contracts) {
    auto start = std::chrono::steady_clock::now();
    kprove::Options ko;
    ko.kernelPath = fs::absolute(cmd.kernel).lexically_normal().string();
    ko.entry = check::kernelRef(cmd.kernel, "", *ct).entry;  // as check finds it (kc_<kernel>, the op's)
    ko.dims = dims;
    ko.dtype = cmd.dtype;
    ko.timeout = cmd.timeout;
    ko.idioms = !cmd.noIdioms;
    std::string target = c.sources.file(ct->range.file).path();
    ko.contractFile = fs::exists(target) ? fs::absolute(target).lexically_normal().string() : ct->id;
    kprove::Result r = kprove::proveKernel(*ct, ko);

    std::string cexPath, confirmation;
    auto chooseCexPath = [&]() {
      cexPath = cmd.cex.empty() ? fs::path(cmd.kernel).stem().string() + "." + sanitise(ct->id) + ".cex.json" : cmd.cex;
      if (contracts.size() > 1 && !cmd.cex.empty()) {  // one file per contract: NAME.ID.json
        fs::path p(cmd.cex);
        cexPath = (p.parent_path() / (p.stem().string() + "." + sanitise(ct->id) + p.extension().string())).string();
      }
    };
    // No answer from the solver, or a run the symbolic subset cannot follow: the concrete
    // probes, each run on the ptx backend and judged; the first FAIL is the counterexample.
    bool noAnswer = r.verdict == kprove::Verdict::Unknown && r.layout && r.unwritten.empty() &&
                    (r.smt2.empty() || r.answer == smt::Answer::Unknown || r.answer == smt::Answer::Timeout);
    if (noAnswer && !cmd.noProbes) {
      chooseCexPath();
      std::string unknownWhy = r.reason;
      bool found = false;
      const std::vector<kprove::ConcreteProbe> probes = kprove::concreteProbes(*r.layout);
      for (const kprove::ConcreteProbe& p : probes) {
        kprove::Result probe = r;
        probe.cex = p.inputs;
        probe.strategy = "concrete probe: " + p.name;
        probe.reason = "the postcondition fails for these inputs, run concretely (no answer from the symbolic route: " +
                       unknownWhy + ")";
        std::ofstream(cexPath) << kprove::counterexampleJson(*ct, ko, probe);
        ExplicitReplay rep = replayExplicitInputs(cexPath, ko.kernelPath, "ptx", in.includeDirs, opts, false);
        if (rep.rc == kExitFailed && rep.verdict == "FAIL") {
          r = probe;
          r.verdict = kprove::Verdict::Refuted;
          confirmation = "confirmed on the ptx backend: " + caseSummary(rep.line);
          found = true;
          break;
        }
      }
      if (!found) {
        fs::remove(cexPath, ec);
        cexPath.clear();
        r.reason += "; no concrete probe fails either (" + std::to_string(probes.size()) +
                    " tried on the ptx backend)";
      }
    } else if (r.verdict == kprove::Verdict::Refuted) {
      chooseCexPath();
      std::ofstream f(cexPath);
      f << kprove::counterexampleJson(*ct, ko, r);
      f.close();
      if (!f) {
        std::cerr << "kcontract prove: cannot write " << cexPath << "\n";
        return kExitInput;
      }
      // The refutation stands only if the kernel really fails on these inputs.
      ExplicitReplay rep = replayExplicitInputs(cexPath, ko.kernelPath, "ptx", in.includeDirs, opts, false);
      if (rep.rc == kExitOk && r.strategy.find("probe") != std::string::npos) {
        // A witness probe's inputs (all ones, ...) often meet the model only through its
        // roundings: ask once more without the probes, for a model of the solver's own.
        kprove::Options again = ko;
        again.probes = false;
        kprove::Result r2 = kprove::proveKernel(*ct, again);
        if (r2.verdict == kprove::Verdict::Refuted) {
          std::ofstream(cexPath) << kprove::counterexampleJson(*ct, again, r2);
          ExplicitReplay rep2 = replayExplicitInputs(cexPath, ko.kernelPath, "ptx", in.includeDirs, opts, false);
          if (rep2.rc != kExitOk) {
            r = r2;
            rep = rep2;
          }
        }
      }
      if (rep.rc == kExitFailed) {
        confirmation = "confirmed on the ptx backend: " + caseSummary(rep.line);
      } else {
        r.verdict = kprove::Verdict::Unknown;
        r.reason = "refutation not confirmed concretely: " +
                   (rep.rc == kExitOk ? "the ptx backend's run of the counterexample passes (" + caseSummary(rep.line) + ")"
                                      : "the ptx backend could not run it (" + rep.error + ")") +
                   "; the solver's model: " + r.reason;
        confirmation = rep.line.empty() ? rep.error : caseSummary(rep.line);
      }
    }
    if (!cmd.smt2.empty() && !r.smt2.empty()) {
      fs::create_directories(cmd.smt2, ec);
      std::ofstream(fs::path(cmd.smt2) / (obl::sanitiseId(ct->id) + ".kernel.smt2")) << r.smt2;
    }
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.verdict == kprove::Verdict::Error) rc = std::max(rc, static_cast<int>(kExitInput));
    else if (r.verdict != kprove::Verdict::Proved) rc = std::max(rc, static_cast<int>(kExitFailed));

    if (cmd.json) {
      nlohmann::ordered_json j;
      j["contract"] = ct->id;
      j["kernel"] = cmd.kernel;
      j["entry"] = r.entry;
      j["shape"] = r.shape;
      j["verdict"] = kprove::verdictName(r.verdict);
      if (!r.reason.empty()) j["reason"] = r.reason;
      j["launches"] = r.launches;
      j["thread_instructions"] = r.instructions;
      j["dag_nodes"] = r.nodes;
      j["roundings"] = r.roundings;
      j["summation_idioms"] = r.sums;
      j["roundings_in_idioms"] = r.roundingsInSums;
      j["output_cells"] = r.outputCells;
      j["unwritten_cells"] = r.unwritten;
      if (!r.smt2.empty()) j["answer"] = smt::answerName(r.answer);
      if (!r.strategy.empty()) j["strategy"] = r.strategy;
      j["solve_s"] = r.solveSeconds;
      j["seconds"] = total;
      if (!cexPath.empty()) j["counterexample"] = cexPath;
      if (!confirmation.empty()) j["confirmation"] = confirmation;
      items.push_back(j);
      continue;
    }
    std::cout << "prove --kernel " << cmd.kernel << ": " << ct->id << " (" << r.entry << ")\n";
    std::cout << "  reduced shape: " << r.shape << "\n";
    for (const auto& l : r.launches) std::cout << "  launch: " << l << "\n";
    if (r.instructions) std::cout << "  symbolic run: " << r.instructions << " thread-instructions\n";
    if (r.outputCells)
      std::cout << "  terms: " << r.nodes << " DAG nodes, " << r.roundings << " f32 roundings, " << r.outputCells
                << " output cells" << sumsText(r) << "\n";
    if (!r.unwritten.empty()) {
      std::cout << "  unwritten output cells: " << r.unwritten.size() << " (";
      for (size_t k = 0; k < r.unwritten.size() && k < 6; ++k) std::cout << (k ? ", " : "") << r.unwritten[k];
      std::cout << (r.unwritten.size() > 6 ? ", ..." : "") << ")\n";
    }
    bool probed = r.strategy.rfind("concrete probe", 0) == 0;
    if (!r.smt2.empty())
      std::cout << "  solver: " << smt::answerName(r.answer) << (r.strategy.empty() || probed ? "" : " (" + r.strategy + ")")
                << " in " << seconds(r.solveSeconds) << "\n";
    if (probed) std::cout << "  then a " << r.strategy << ", run on the ptx backend\n";
    if (r.cex && !cexPath.empty()) {
      std::cout << "  counterexample (inputs as f32):\n";
      size_t shown = 0, all = 0;
      for (const auto& t : r.cex->inputs) {
        for (size_t f = 0; f < t.values.size(); ++f, ++all) {
          if (shown >= 12) continue;
          std::vector<int64_t> idx(t.shape.size(), 0);
          int64_t rest = static_cast<int64_t>(f);
          for (size_t d = t.shape.size(); d-- > 0;) {
            idx[d] = rest % std::max<int64_t>(1, t.shape[d]);
            rest /= std::max<int64_t>(1, t.shape[d]);
          }
          std::string cell = t.name + (idx.empty() ? "" : "[");
          for (size_t d = 0; d < idx.size(); ++d) cell += (d ? ", " : "") + std::to_string(idx[d]);
          if (!idx.empty()) cell += "]";
          char b[48];
          std::snprintf(b, sizeof b, "%.9g", static_cast<double>(t.values[f]));
          std::cout << "    " << cell << " = " << b << "\n";
          ++shown;
        }
      }
      if (all > shown) std::cout << "    ... " << all - shown << " more (in the file)\n";
      std::cout << "  counterexample file: " << cexPath << "\n";
      std::cout << "  replay: kcontract replay --inputs " << cexPath << " --backend ptx|cuda\n";
      if (!confirmation.empty() && r.verdict == kprove::Verdict::Refuted) std::cout << "  " << confirmation << "\n";
    }
    std::cout << "  verdict: " << kprove::verdictName(r.verdict);
    if (r.verdict == kprove::Verdict::Proved)
      std::cout << ": within the contract's tolerance for every input meeting the precondition, at this shape, under the "
                   "f32 rounding model (docs/ptx.md, \"Symbolic mode\")";
    else if (!r.reason.empty())
      std::cout << ": " << r.reason;
    std::cout << "\n  time: " << seconds(total) << "\n";
    std::cout.flush();
  }
  if (cmd.json) {
    nlohmann::ordered_json j;
    j["solver"] = smt::solverVersion();
    j["timeout_s"] = cmd.timeout;
    j["kernels"] = items;
    j["exit"] = rc;
    std::cout << j.dump(2) << "\n";
  }
  return rc;
}

}  // namespace kc::driver
