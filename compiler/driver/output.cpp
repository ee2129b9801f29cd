#include "compiler/driver/output.h"

#include <unistd.h>

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

}  // namespace kc::driver
