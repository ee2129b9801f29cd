#pragma once
// Shared output helpers for subcommands: colour decisions and diagnostics.
#include <iosfwd>

#include "compiler/diag/diagnostics.h"
#include "compiler/driver/cli.h"

namespace kc::driver {

bool useColor(const GlobalOptions& opts, int fd);
void printDiagnostics(const DiagnosticEngine& diags, const GlobalOptions& opts);

}  // namespace kc::driver
