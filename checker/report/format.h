#pragma once
// The report formats of `kcontract check --format` (docs/checking.md, "Reports"): a registry.
// Each format says what it is (name, a description, whether it is a machine format) and how
// it writes results: a record per case as the case finishes (streamed, like JSON Lines), a
// document when the run ends (like JUnit and SARIF), both, or neither (the text report,
// which `kcontract check` prints itself). ReportWriter sends a format's output where it goes.
//
// Adding a format NAME (one file plus one line):
//   1. checker/report/NAME.cpp (picked up by checker/CMakeLists.txt's glob) defines
//        ReportFormat kc::report::NAMEFormat() { ... }
//      returning the format: its name as --format spells it, a description, machine = true,
//      and caseRecord (a streamed format) and/or document (a whole-document format);
//      parseRecord only for a format that --resume can read back.
//   2. checker/report/formats.def gets the line KC_REPORT_FORMAT(NAME). Its order is the
//      order in which --help and the usage error list the formats; the first is the default.
// `kcontract check --format NAME [--out FILE]` then finds it (findReportFormat), lists it
// in --help and in "--format is ...; not 'X'", and writes it through ReportWriter. A test
// (or a tool linking the library) registers a format at run time with registerReportFormat
// instead; tests/unit/test_report_formats.cpp does, and writes a run through it.
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/report/diagnosis.h"
#include "checker/report/result.h"

namespace kc::report {

// What a document may need beyond the results.
struct FormatContext {
  std::string toolVersion;  // kcontract's version (SARIF's tool.driver.version)
  std::string sandbox;      // the cell kernels ran in (sandbox::statusLine); "" when not known
  std::string dataFolder;   // the data folder the run used (stdlib/data_root.h); "" when not known
  std::vector<Diagnosis> diagnoses;  // per job, the causes its failures support (checker/diagnose/)
};

struct ReportFormat {
  std::string name;         // as --format spells it
  std::string description;  // one line for docs and tools (--help lists only the names)
  // A machine format goes to --out FILE, or alone to stdout: without --out, stdout holds
  // only it (no case lines, notes or summary). false: the human text report, which is
  // printed whatever the format, whenever stdout is not taken by a machine format.
  bool machine = true;
  // Streamed: one record per case as it finishes (no newline in it); the writer adds "\n"
  // and writes the whole line with one write() (O_APPEND), so a killed run loses at most the
  // record being written and never leaves half a line with more lines after it.
  std::function<std::string(const CaseResult&)> caseRecord;
  // The records are JSON objects that carry the results file's integrity chain
  // (checker/report/chain.h), added by the writer; --resume verifies it.
  bool chained = false;
  // A document of every result, written when the run ends. With --out the file is replaced
  // at once (written to FILE.tmp, then renamed).
  std::function<std::string(const std::vector<CaseResult>&, const FormatContext&)> document;
  // Reads one record that caseRecord wrote back (--resume); nullopt and `error` for a record
  // that is cut short or wrong. Empty for a format --resume cannot read.
  std::function<std::optional<CaseResult>(const std::string& record, std::string& error)> parseRecord;
};

// Every format: those of formats.def in its order, then those registered at run time.
const std::vector<ReportFormat>& reportFormats();
// The format of that name, or nullptr.
const ReportFormat* findReportFormat(std::string_view name);
// Adds a format at run time (not thread-safe: before any run). Throws std::invalid_argument
// for an empty or taken name. unregisterReportFormat removes one that was registered so;
// the formats of formats.def stay. Pointers from findReportFormat are invalidated by both.
void registerReportFormat(ReportFormat format);
bool unregisterReportFormat(std::string_view name);
// The names as prose: "text, jsonl, junit or sarif"; with markDefault, the first (the
// default) followed by " (default)".
std::string reportFormatList(bool markDefault = false);
// The first format: the default of --format (text).
const ReportFormat& defaultReportFormat();
// The format --resume reads and appends to: the first that has parseRecord (jsonl).
const ReportFormat& resumeFormat();

class ResultsChain;  // checker/report/chain.h

// What --out does to a file that exists already (a regular file; a device or a pipe is
// written to as it is).
enum class OutMode {
  Create,   // refuse it: open() fails naming --resume and --replace
  Append,   // --resume: the records go after it, continuing its chain (continueChain)
  Replace,  // --replace: write it afresh
};

// Where one run's report goes: stdout (`console`) when `out` is empty, else the file `out`.
class ReportWriter {
 public:
  ReportWriter(const ReportFormat& format, std::string out, std::ostream& console, OutMode mode = OutMode::Create);
  ReportWriter(const ReportFormat& format, std::string out, OutMode mode = OutMode::Create);  // console: std::cout
  ~ReportWriter();
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Opens `out` for a streamed format (to append); false and "cannot write 'OUT'" in
  // `error` when it cannot be opened. With OutMode::Create, an `out` that exists already
  // (whatever the format) is refused: false and existsError(out) in `error`.
  bool open(std::string& error);
  // With OutMode::Append: the file's records end with this digest (VerifiedResults::last).
  void continueChain(std::string last);
  // Whether the human text report is written: the format is not a machine format, or the
  // machine format goes to a file (then the text goes to stdout).
  bool wantsText() const;
  // Where the human text report goes: the file `out` for the text format with --out (opened
  // by open(), written as the run goes, so a killed run keeps what it printed), else the console.
  std::ostream& text();
  bool textToConsole() const { return !textFile_; }
  // A case finished: its record, for a streamed format.
  void add(const CaseResult& r);
  // The run ended: the document, for a document format; false and "cannot write 'OUT'" in
  // `error` when the file cannot be written.
  bool finish(const std::vector<CaseResult>& results, const FormatContext& context, std::string& error);

 private:
  const ReportFormat& format_;
  std::string out_;
  std::ostream& console_;
  OutMode mode_;
  int fd_ = -1;  // the streamed records' file
  std::ostream* records_ = nullptr;
  std::unique_ptr<std::ofstream> textFile_;  // the text format's --out
  std::unique_ptr<ResultsChain> chain_;
};

// "'OUT' exists already; add --replace to overwrite it, or --resume OUT to keep its results and
// append to it" (the second choice only for a format --resume reads).
std::string existsError(const std::string& out, bool resumable);

// The formats of formats.def (each defined in its own file).
#define KC_REPORT_FORMAT(NAME) ReportFormat NAME##Format();
#include "checker/report/formats.def"
#undef KC_REPORT_FORMAT

}  // namespace kc::report
