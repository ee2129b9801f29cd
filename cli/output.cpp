#include "cli/output.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "compiler/obligations/obligations.h"

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
  bool ok = compileTargets(c, in.targets, in.includeDirs, opts.warningsAsErrors, last, chosen);
  printDiagnostics(c.diags, opts);
  return ok;
}

// file:line:col: error: message, the source line and a caret under the range (the
// diagnostics' format; obligations have no catalogue codes yet).
void printLocated(std::ostream& os, const SourceManager& sources, const SourceRange& r, const char* severity,
                  const std::string& message, bool color, const std::string& code) {
  os << obl::locationText(r, &sources) << ": ";
  if (color) os << (std::string(severity) == "error" ? "\033[1;31m" : "\033[1;35m");
  os << severity;
  if (!code.empty()) os << "[" << code << "]";
  if (color) os << "\033[0m\033[1m";
  os << ": " << message;
  if (color) os << "\033[0m";
  os << "\n";
  if (!sources.has(r.file) || !r.valid()) return;
  std::string line(sources.file(r.file).line(r.begin.line));
  for (char& ch : line)
    if (static_cast<unsigned char>(ch) >= 0x80 || (static_cast<unsigned char>(ch) < 0x20 && ch != '\t')) ch = '?';
  os << line << "\n";
  std::string under;
  for (uint32_t i = 1; i < r.begin.column && i - 1 < line.size(); ++i) under += line[i - 1] == '\t' ? '\t' : ' ';
  uint32_t endCol = r.end.line == r.begin.line ? r.end.column : static_cast<uint32_t>(line.size()) + 1;
  under += '^';
  for (uint32_t i = r.begin.column + 1; i < endCol; ++i) under += '~';
  os << (color ? "\033[1;32m" : "") << under << (color ? "\033[0m" : "") << "\n";
}

bool replaceFile(const std::string& path, const std::string& text) {
  std::string tmp = path + ".kc.tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  return !ec;
}

}  // namespace kc::driver
