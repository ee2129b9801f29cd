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
  sub->add_option("files", in.files, "The .kcontract files")->required();
  sub->add_option("-I,--include", in.includeDirs, "Another folder to search for imported modules");
}

bool compileInputs(Compilation& c, const InputOptions& in, const GlobalOptions& opts, Stage last) {
  c.diags.setWarningsAsErrors(opts.warningsAsErrors);
  c.includeDirs = in.includeDirs;
  compile(c, in.files, last);
  printDiagnostics(c.diags, opts);
  return !c.diags.hasErrors();
}

}  // namespace kc::driver
