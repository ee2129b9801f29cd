#include "compiler/diag/diagnostics.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <tuple>

namespace kc {

namespace {

const DiagInfo kInfos[] = {
#define KC_DIAG(num, id, name, sev, summary) {num, name, Severity::sev, summary},
#include "compiler/diag/catalog.def"
#undef KC_DIAG
};

const char* severityWord(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

const char* severityColor(Severity s) {
  switch (s) {
    case Severity::Note: return "\033[1;36m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Error: return "\033[1;31m";
  }
  return "";
}

// "file:line:col: " or "" when the range has no location.
std::string locationPrefix(const SourceManager& sources, const SourceRange& r) {
  if (!sources.has(r.file)) return "kcontract: ";
  std::string s = sources.file(r.file).path();
  if (r.valid()) s += ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  return s + ": ";
}

void printSnippet(std::ostream& out, const SourceManager& sources, const SourceRange& r, bool color) {
  if (!sources.has(r.file) || !r.valid()) return;
  const SourceFile& f = sources.file(r.file);
  std::string line(f.line(r.begin.line));
  uint32_t col = r.begin.column;
  uint32_t endCol = (r.end.line == r.begin.line) ? r.end.column : static_cast<uint32_t>(line.size()) + 1;
  // Very long lines are shown as a window around the column.
  constexpr uint32_t kWindow = 60;
  if (line.size() > 2 * kWindow + 40 && col > kWindow) {
    uint32_t cut = col - kWindow;
    line = "..." + line.substr(cut - 1);
    col = col - cut + 4;
    endCol = endCol - cut + 4;
  }
  if (line.size() > 2 * kWindow + 40) line = line.substr(0, 2 * kWindow + 40) + "...";
  // Bytes that are not printable ASCII are shown as '?' so a broken encoding cannot leak.
  for (char& c : line)
    if (static_cast<unsigned char>(c) >= 0x80 || (static_cast<unsigned char>(c) < 0x20 && c != '\t')) c = '?';
  out << line << "\n";
  std::string underline;
  for (uint32_t i = 1; i < col && i - 1 < line.size(); ++i) underline += line[i - 1] == '\t' ? '\t' : ' ';
  uint32_t width = endCol > col ? endCol - col : 1;
  underline += '^';
  for (uint32_t i = 1; i < width; ++i) underline += '~';
  if (color) out << "\033[1;32m" << underline << "\033[0m\n";
  else out << underline << "\n";
}

}  // namespace

const DiagInfo& diagInfo(DiagCode code) {
  for (const auto& info : kInfos)
    if (info.number == static_cast<int>(code)) return info;
  return kInfos[0];
}

const std::vector<DiagCode>& allDiagCodes() {
  static const std::vector<DiagCode> codes = {
#define KC_DIAG(num, id, name, sev, summary) DiagCode::id,
#include "compiler/diag/catalog.def"
#undef KC_DIAG
  };
  return codes;
}

std::string diagCodeString(DiagCode code) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "KC%04d", static_cast<int>(code));
  return buf;
}

Diagnostic& DiagnosticEngine::report(DiagCode code, SourceRange range, std::string message) {
  Severity sev = diagInfo(code).severity;
  if (sev == Severity::Warning && warningsAsErrors_) sev = Severity::Error;
  diags_.push_back(Diagnostic{code, sev, range, std::move(message), {}});
  return diags_.back();
}

size_t DiagnosticEngine::errorCount() const {
  return std::count_if(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

size_t DiagnosticEngine::warningCount() const {
  return std::count_if(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.severity == Severity::Warning; });
}

std::vector<Diagnostic> DiagnosticEngine::sorted() const {
  std::vector<Diagnostic> out = diags_;
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.range.file, a.range.begin.offset) < std::tie(b.range.file, b.range.begin.offset);
  });
  // Drop every later copy of a diagnostic already kept (same code, place and message).
  std::vector<Diagnostic> unique;
  for (auto& d : out) {
    bool seen = std::any_of(unique.begin(), unique.end(), [&](const Diagnostic& u) {
      return u.code == d.code && u.range.file == d.range.file && u.range.begin.offset == d.range.begin.offset &&
             u.message == d.message;
    });
    if (!seen) unique.push_back(std::move(d));
  }
  return unique;
}

void DiagnosticEngine::print(std::ostream& out, bool color) const {
  for (const auto& d : sorted()) printDiagnostic(out, sources_, d, color);
}

void printDiagnostic(std::ostream& out, const SourceManager& sources, const Diagnostic& d, bool color) {
  out << locationPrefix(sources, d.range);
  if (color) out << severityColor(d.severity);
  out << severityWord(d.severity) << "[" << diagCodeString(d.code) << "]";
  if (color) out << "\033[0m\033[1m";
  out << ": " << d.message;
  if (color) out << "\033[0m";
  out << "\n";
  printSnippet(out, sources, d.range, color);
  for (const auto& note : d.notes) {
    out << locationPrefix(sources, note.range) << (color ? "\033[1;36mnote\033[0m" : "note") << ": " << note.message
        << "\n";
    printSnippet(out, sources, note.range, color);
  }
}

}  // namespace kc
