// kcontract oracle FILE|ID... [--target host|cuda] [--max-memory SIZE] [--seed N] [-I DIR]: the
// compiled oracle (checker/device_oracle) against the f64 interpreter, cell for cell, on every
// plan case of each contract; times both. Exit 0 when every compared cell agrees, 1 when one
// does not, 2 on a usage or input error (a CUDA target without a GPU included).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "backends/backend.h"
#include "checker/device_oracle/agreement.h"
#include "checker/device_oracle/oracle_server.h"
#include "cli/cli.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

namespace {

struct OracleOptions {
  InputOptions in;
  std::string target = "host";
  std::string maxMemory = "64M";
  uint64_t seed = 0;
};

int usage(const std::string& message) {
  std::cerr << "kcontract oracle: " << message << "\n";
  return kExitInput;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// One line per contract (cases compared, cells, times), then every case that differs or
// fails, and the skipped ones counted by reason.
bool printContract(const device_oracle::ContractAgreement& a) {
  bool agree = true;
  size_t compared = 0;
  uint64_t cells = 0, identical = 0;
  double interpreter = 0, compiled = 0, work = 0;
  std::vector<std::string> details;
  std::map<std::string, size_t> skipped;
  for (const auto& c : a.cases) {
    const std::string head = "case " + std::to_string(c.number) + " (" + c.dims + (c.dtypes.empty() ? "" : "; " + c.dtypes) + "): ";
    if (!c.skipped.empty()) {
      ++skipped[c.skipped];
      continue;
    }
    if (!c.error.empty()) {
      details.push_back(head + "ERROR: " + c.error);
      agree = false;
      continue;
    }
    ++compared;
    interpreter += c.interpreterSeconds;
    compiled += c.compiledSeconds;
    work += c.programSeconds;
    for (const auto& d : c.defs) {
      cells += d.cells;
      identical += d.identical;
      if (!d.outside) continue;
      details.push_back(head + "DIFFER: " + d.name + (d.tolerance ? " (tolerance)" : "") + ": " + std::to_string(d.outside) +
                        " of " + std::to_string(d.cells) + " cells outside the bound, first " + d.firstOutside);
      agree = false;
    }
  }
  std::cout << a.id << ": " << compared << " case" << (compared == 1 ? "" : "s") << " compared, " << cells << " cells ("
            << identical << " identical), " << (agree ? "all agree" : "DIFFER") << "; interpreter " << seconds(interpreter)
            << " | compiled " << seconds(compiled) << " | its work " << seconds(work) << "\n";
  for (const auto& why : a.notLowered) std::cout << "  interpreter only: " << why << "\n";
  for (const auto& d : details) std::cout << "  " << d << "\n";
  for (const auto& [why, n] : skipped) std::cout << "  SKIPPED " << n << " case" << (n == 1 ? "" : "s") << ": " << why << "\n";
  return agree;
}

int runOracle(const OracleOptions& cmd, const GlobalOptions& opts) {
  device_oracle::AgreementOptions ao;
  if (cmd.target == "cuda") {
    ao.target = device_oracle::Target::Cuda;
    backend::Availability cuda = backend::makeBackend(backend::kCudaBackend)->probe();
    if (!cuda.available) return usage("--target cuda needs a GPU: " + cuda.reason);
    ao.arch = cuda.arch;
  } else if (cmd.target != "host") {
    return usage("--target is host or cuda; not '" + cmd.target + "'");
  }
  if (!parseBytes(cmd.maxMemory, ao.maxBytes))
    return usage("--max-memory is a size such as 512M or 4G (1 byte to 1024T); not '" + cmd.maxMemory + "'");
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, cmd.in, opts, Stage::Sema, chosen)) return kExitInput;
  plan::Options po;
  po.seed = cmd.seed;
  bool agree = true;
  for (plan::Plan& p : plan::planProgram(*c.program, c.fileIds, po)) {
    if (!isChosen(chosen, p.contract) || p.cases.empty()) continue;
    const sema::ContractInfo* ct = c.program->contract(p.contract);
    if (!ct) continue;
    agree = printContract(device_oracle::compareOracles(*ct, p, ao)) && agree;
  }
  return agree ? kExitOk : kExitFailed;
}

}  // namespace

void addOracleCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  auto cmd = std::make_shared<OracleOptions>();
  CLI::App* sub = app.add_subcommand(
      "oracle", "Compare the compiled oracle (host or CUDA) with the f64 interpreter, cell for cell, on every plan case");
  addInputOptions(sub, cmd->in);
  sub->add_option("--target", cmd->target, "Where the compiled oracle runs: host (the host compiler) or cuda (nvcc, a GPU)");
  sub->add_option("--max-memory", cmd->maxMemory, "Skip cases whose tensors need more, e.g. 512M (default 64M)");
  sub->add_option("--seed", cmd->seed, "The base seed every case's seeds derive from (default 0)")
      ->check(integerValue(0, UINT64_MAX));
  commands.emplace_back(sub, [cmd](const GlobalOptions& g) { return runOracle(*cmd, g); });

  // The oracle server check starts for compiled CUDA oracles (device_oracle/oracle_server.h):
  // not for users, so not listed.
  auto fd = std::make_shared<int>(-1);
  CLI::App* server = app.add_subcommand("__oracle-server", "");
  server->group("");
  server->add_option("fd", *fd, "The socket")->required();
  commands.emplace_back(server, [fd](const GlobalOptions&) { return device_oracle::serveOracle(*fd); });
}

}  // namespace kc::driver
