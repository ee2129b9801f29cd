#pragma once
// Shared output helpers for subcommands: colour decisions and diagnostics.
#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/pipeline.h"

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/cli.h"

namespace kc::driver {

bool useColor(const GlobalOptions& opts, int fd);
void printDiagnostics(const DiagnosticEngine& diags, const GlobalOptions& opts);

// The inputs of a command that compiles contracts: files and import folders.
struct InputOptions {
  std::vector<std::string> files;
  std::vector<std::string> includeDirs;
};
void addInputOptions(CLI::App* sub, InputOptions& in);
// Compiles the inputs up to `last` and prints the diagnostics; false when there were errors.
bool compileInputs(Compilation& c, const InputOptions& in, const GlobalOptions& opts, Stage last);

}  // namespace kc::driver
