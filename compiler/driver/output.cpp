#include "compiler/driver/output.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

namespace kc::driver {

bool useColor(const GlobalOptions& opts, int fd) {
  if (opts.color == "always") return true;
  if (opts.color == "never") return false;
  return isatty(fd) && std::getenv("NO_COLOR") == nullptr;
}

void printDiagnostics(const DiagnosticEngine& diags, const GlobalOptions& opts) {
  diags.print(std::cerr, useColor(opts, STDERR_FILENO));
}

void addInputOptions(CLI::App* sub, InputOptions& in) {
  sub->add_option("targets", in.targets, "The .kcontract files, or contract IDs (name@version) to find under the -I folders and the shipped library")->required();
  sub->add_option("-I,--include", in.includeDirs, "Another folder to search for imported modules");
}

bool compileInputs(Compilation& c, const InputOptions& in, const GlobalOptions& opts, Stage last, Targets& chosen) {
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  c.includeDirs = in.includeDirs;
  chosen = resolveTargets(in.targets, in.includeDirs, c.diags);
  if (c.diags.hasErrors()) {
    printDiagnostics(c.diags, opts);
    return false;
  }
  compile(c, chosen.files, last);
  printDiagnostics(c.diags, opts);
  return !c.diags.hasErrors();
}

}  // namespace kc::driver
