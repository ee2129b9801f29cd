#pragma once
// Shared output helpers for subcommands: colour decisions and diagnostics.
#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/pipeline.h"

#include "compiler/diag/diagnostics.h"
#include "cli/cli.h"
#include "compiler/targets.h"

namespace kc::driver {

bool useColor(const GlobalOptions& opts, int fd);

// Writes `text` beside `path` and renames it over `path`, so a crash never leaves half a file.
bool replaceFile(const std::string& path, const std::string& text);

// file:line:col: SEVERITY: message, the source line and a caret under the range (the
// diagnostics' format, for findings that are not catalogue diagnostics: obligations).
// `code` (KC3001) is printed as severity[code] when given.
void printLocated(std::ostream& os, const SourceManager& sources, const SourceRange& r, const char* severity,
                  const std::string& message, bool color, const std::string& code = "");
void printDiagnostics(const DiagnosticEngine& diags, const GlobalOptions& opts);

// The inputs of a command that compiles contracts: files or contract IDs (targets.h), and
// import folders (also searched for IDs).
struct InputOptions {
  std::vector<std::string> targets;
  std::vector<std::string> includeDirs;
};
void addInputOptions(CLI::App* sub, InputOptions& in);
// Resolves the targets, compiles their files up to `last` and prints the diagnostics; false
// when there were errors. `chosen` receives the resolved targets.
bool compileInputs(Compilation& c, const InputOptions& in, const GlobalOptions& opts, Stage last, Targets& chosen);

}  // namespace kc::driver
