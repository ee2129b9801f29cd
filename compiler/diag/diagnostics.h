#pragma once
// Diagnostics: catalogue codes, the engine that collects them, and the clang-style printer:
//   file:line:col: error[KC1003]: message
//   <the source line>
//           ^~~~
#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/diag/source.h"

namespace kc {

enum class Severity { Note, Warning, Error };

enum class DiagCode {
#define KC_DIAG(num, id, name, sev, summary) id = num,
#include "compiler/diag/catalog.def"
#undef KC_DIAG
};

struct DiagInfo {
  int number;
  const char* name;
  Severity severity;
  const char* summary;
};
const DiagInfo& diagInfo(DiagCode code);
const std::vector<DiagCode>& allDiagCodes();
std::string diagCodeString(DiagCode code);  // "KC1003"

struct Diagnostic {
  DiagCode code;
  Severity severity;
  SourceRange range;
  std::string message;
  struct Note {
    SourceRange range;
    std::string message;
  };
  std::vector<Note> notes;
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sources) : sources_(sources) {}

  Diagnostic& report(DiagCode code, SourceRange range, std::string message);
  bool hasErrors() const { return errorCount() > 0; }
  size_t errorCount() const;
  size_t warningCount() const;
  void setWarningsAsErrors(bool on) { warningsAsErrors_ = on; }
  // Diagnostics in source order, duplicates removed.
  std::vector<Diagnostic> sorted() const;
  void print(std::ostream& out, bool color) const;
  void clear() { diags_.clear(); }
  // In report order, for passes that add notes to what they just reported.
  size_t count() const { return diags_.size(); }
  Diagnostic& at(size_t i) { return diags_.at(i); }

 private:
  const SourceManager& sources_;
  std::vector<Diagnostic> diags_;
  bool warningsAsErrors_ = false;
};

// One diagnostic in the clang format, with its source line and underline.
void printDiagnostic(std::ostream& out, const SourceManager& sources, const Diagnostic& d, bool color);

}  // namespace kc
