#include "checker/report/text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "checker/report/builtin_signatures.h"
#include "checker/report/format.h"

namespace kc::report {

namespace {

constexpr size_t kVerdictWidth = 10;  // "MISTRUSTED"
constexpr size_t kShownCells = 5;
constexpr size_t kShownOutputLines = 5;
constexpr size_t kShownOutputColumns = 200;  // a longer line is cut (a kernel may print one of 64 KiB)
const std::string kIndent = "    ";

std::string printf1(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string nonFinite(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

// 3.1e-02, as torch's messages print differences.
std::string sci(double v) { return std::isfinite(v) ? printf1("%.1e", v) : nonFinite(v); }

// The shortest text that reads back as the same value: as a float when the value is one (a
// kernel's f32 output prints as 0.1, not 0.100000001490116), else as a double.
std::string shortest(double v) {
  if (!std::isfinite(v)) return nonFinite(v);
  const bool isFloat = std::fabs(v) <= 3.4e38 && static_cast<double>(static_cast<float>(v)) == v;
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    const double back = std::strtod(buf, nullptr);
    if (isFloat ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
  }
  return buf;
}

std::string ulpText(double u) {
  if (std::isfinite(u) && u == std::floor(u) && std::fabs(u) < 1e15) return printf1("%.0f", u);
  return shortest(u);
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string colored(Verdict v, const std::string& text, bool color) {
  if (!color) return text;
  const char* code = v == Verdict::Pass ? "\x1b[32m" : verdictSeverity(v) == 3 ? "\x1b[31m" : "\x1b[33m";
  return code + text + "\x1b[0m";
}

// " at index (0, 17)" for the first worst cell whose `key` equals `value`, with " of y"
// when the worst cells come from more than one output.
template <class Key>
std::string locate(const CaseResult& r, double value, Key key, const WorstCell** found) {
  *found = nullptr;
  for (const WorstCell& c : r.worst)
    if (same(key(c), value)) {
      *found = &c;
      break;
    }
  if (!*found) return "";
  const bool several = std::any_of(r.worst.begin(), r.worst.end(),
                                   [&](const WorstCell& c) { return c.tensor != r.worst.front().tensor; });
  return " at index " + formatIndex((*found)->index) + (several ? " of " + (*found)->tensor : "");
}

std::string cellLine(const WorstCell& c) {
  std::string s = c.tensor + " at index " + formatIndex(c.index) + ": got " + shortest(c.got) + ", expected " +
                  shortest(c.expected) + ", difference " + sci(c.absError);
  if (!std::isnan(c.tolerance)) s += " (up to " + sci(c.tolerance) + " allowed)";
  s += ", " + ulpText(c.ulps) + " ulps";
  if (c.unwritten) s += ", never written (still poison)";
  return s;
}

// The last lines of what the kernel printed, control characters made harmless for a terminal.
std::vector<std::string> outputTail(const std::string& output) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();  // '\r'
    for (char& ch : line)
      if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7f) ch = '?';
    if (line.size() > kShownOutputColumns)
      line = line.substr(0, kShownOutputColumns) + " ... (" + std::to_string(line.size()) + " characters)";
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  if (lines.size() > kShownOutputLines) lines.erase(lines.begin(), lines.end() - kShownOutputLines);
  return lines;
}

}  // namespace

int verdictSeverity(Verdict v) {
  if (isViolation(v)) return 3;
  switch (v) {
    case Verdict::Mistrusted: return 2;
    case Verdict::Skipped:
    case Verdict::Unknown: return 1;
    default: return 0;
  }
}

Verdict worseVerdict(Verdict a, Verdict b) {
  const int sa = verdictSeverity(a), sb = verdictSeverity(b);
  if (sa != sb) return sa > sb ? a : b;
  return static_cast<int>(a) <= static_cast<int>(b) ? a : b;
}

std::vector<std::string> shownSignatures(const CaseResult& r) {
  if (r.signatures.empty() && r.verdict == Verdict::Fail) return {signature::kUnclassified};
  return r.signatures;
}

std::string formatIndex(const std::vector<int64_t>& index) {
  std::string s = "(";
  for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
  return s + (index.size() == 1 ? ",)" : ")");
}

std::vector<std::string> sanitizerLines(const CaseResult& r) {
  std::vector<std::string> lines;
  if (!r.sanitizer) return lines;
  const SanitizerRun& s = *r.sanitizer;
  std::string head = "compute-sanitizer " + s.tool + ": ";
  if (!s.ran) {
    lines.push_back(head + "not run: " + s.note);
    return lines;
  }
  if (s.errors < 0)
    head += "no error summary from the tool (it died or ran out of time)";
  else
    head += std::to_string(s.errors) + (s.errors == 1 ? " error" : " errors");
  if (!s.note.empty()) head += " (re-run: " + s.note + ")";
  lines.push_back(head);
  for (const auto& f : s.findings) lines.push_back("| " + f);
  return lines;
}

std::vector<std::string> caseDetails(const CaseResult& r) {
  std::vector<std::string> lines;
  if (r.verdict == Verdict::Pass) return sanitizerLines(r);
  if (!r.reason.empty()) lines.push_back(r.reason);
  if (!r.violated.empty()) lines.push_back("violated: " + join(r.violated, ", "));
  const auto signatures = shownSignatures(r);
  if (!signatures.empty())
    lines.push_back("matches: " + join(signatures, ", "));  // candidates: the diagnosis names the cause
  if (r.mismatched > 0 || !r.worst.empty()) {
    if (r.compared > 0)
      lines.push_back("Mismatched elements: " + std::to_string(r.mismatched) + " / " + std::to_string(r.compared) +
                      " (" + printf1("%.1f", 100.0 * static_cast<double>(r.mismatched) / r.compared) + "%)");
    const WorstCell* cell = nullptr;
    std::string where = locate(r, r.maxAbsError, [](const WorstCell& c) { return c.absError; }, &cell);
    std::string line = "Greatest absolute difference: " + sci(r.maxAbsError) + where;
    if (cell && !std::isnan(cell->tolerance)) line += " (up to " + sci(cell->tolerance) + " allowed)";
    lines.push_back(line);
    where = locate(r, r.maxUlps, [](const WorstCell& c) { return c.ulps; }, &cell);
    lines.push_back("Greatest ulp difference: " + ulpText(r.maxUlps) + where);
    for (size_t i = 0; i < r.worst.size() && i < kShownCells; ++i) lines.push_back(cellLine(r.worst[i]));
    if (r.worst.size() > kShownCells)
      lines.push_back("... and " + std::to_string(r.worst.size() - kShownCells) + " more of the worst cells");
  }
  const auto tail = outputTail(r.kernelOutput);
  if (!tail.empty()) {
    lines.push_back("kernel output (last lines):");
    for (const auto& l : tail) lines.push_back("| " + l);
  }
  // Where it explains the verdict: the repeats differed (JSON Lines and SARIF always carry it).
  bool differs = std::any_of(r.violated.begin(), r.violated.end(), [](const std::string& v) { return v.rfind("determinism", 0) == 0; });
  if (differs && !r.perturbation.empty()) lines.push_back("perturbation: " + r.perturbation);
  for (auto& l : sanitizerLines(r)) lines.push_back(std::move(l));
  if (!r.repro.empty()) lines.push_back("repro: " + r.repro);
  return lines;
}

std::string caseLine(const CaseResult& r, bool color) {
  const std::string word(verdictName(r.verdict));
  std::string s = colored(r.verdict, word, color) + std::string(kVerdictWidth + 1 - word.size(), ' ') + r.caseId;
  std::vector<std::string> scope;
  for (const auto& [name, size] : r.dims) scope.push_back(name + "=" + std::to_string(size));
  for (const auto& [name, dtype] : r.dtypes) scope.push_back(name + "=" + dtype);
  for (const auto& [name, dist] : r.values) scope.push_back(name + "=" + dist);
  for (const auto& [name, layout] : r.layouts) scope.push_back(name + ":" + layout);
  if (!scope.empty()) s += "   " + join(scope, " ");
  s += "   " + printf1("%.2f", r.seconds) + " s";
  for (const auto& line : caseDetails(r)) s += "\n" + kIndent + line;
  return s;
}

std::string summaryTable(const std::vector<CaseResult>& results, bool color, const std::vector<Diagnosis>& diagnoses) {
  if (results.empty()) return "no cases\n";
  struct Row {
    std::string kernel, contract, backend;
    std::string impl;  // PATH:ENTRY, what a diagnosis names (kernel may be a suite entry's name)
    std::array<int64_t, kVerdictCount> counts{};
    // The worst verdict of the cases that ran: a case SKIPPED does not make a row that passed
    // everything it ran SKIPPED (its reason is listed under the table); SKIPPED when none ran.
    // Nor does a MISTRUSTED case (it says nothing about the kernel) make a row MISTRUSTED when
    // other cases passed: listed under the table too, as jobOutcome() counts it.
    Verdict worst = Verdict::Skipped;
    bool ran = false;
    std::vector<std::pair<std::string, int64_t>> skips, mistrusts;  // reason, cases
    std::vector<std::string> signatures;
    Row(std::string k, std::string c, std::string b) : kernel(std::move(k)), contract(std::move(c)), backend(std::move(b)) {}
  };
  std::vector<Row> rows;
  Row total("total", std::to_string(results.size()) + (results.size() == 1 ? " case" : " cases"), "");
  for (const CaseResult& r : results) {
    // A suite's kernel by its entry's name (two entries may share one file), else by PATH:ENTRY.
    const std::string& label = r.name.empty() ? r.kernel : r.name;
    auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& row) {
      return row.kernel == label && row.contract == r.contract && row.backend == r.backend;
    });
    if (it == rows.end()) {
      it = rows.insert(rows.end(), Row(label, r.contract, r.backend));
      it->impl = r.kernel;
    }
    for (Row* row : {&*it, &total}) {
      ++row->counts[static_cast<size_t>(r.verdict)];
      if (r.verdict == Verdict::Skipped) continue;
      row->worst = row->ran ? worseVerdict(row->worst, r.verdict) : r.verdict;
      row->ran = true;
    }
    if (r.verdict == Verdict::Skipped || r.verdict == Verdict::Mistrusted) {
      auto& list = r.verdict == Verdict::Skipped ? it->skips : it->mistrusts;
      auto s = std::find_if(list.begin(), list.end(), [&](const auto& k) { return k.first == r.reason; });
      if (s == list.end()) list.emplace_back(r.reason, 1);
      else ++s->second;
    }
    for (const auto& sig : shownSignatures(r))
      if (std::find(it->signatures.begin(), it->signatures.end(), sig) == it->signatures.end())
        it->signatures.push_back(sig);
  }

  for (auto& row : rows)
    for (const Diagnosis& d : diagnoses)
      if (!d.empty() && d.kernel == row.impl && d.contract == row.contract && d.backend == row.backend) row.signatures = d.names();
  for (auto& row : rows)
    if (row.worst == Verdict::Mistrusted && row.counts[static_cast<size_t>(Verdict::Pass)] > 0) row.worst = Verdict::Pass;
  if (total.worst == Verdict::Mistrusted &&
      std::none_of(rows.begin(), rows.end(), [](const Row& row) { return row.worst == Verdict::Mistrusted; }))
    total.worst = Verdict::Pass;

  // Cells as plain text (widths come from these), the verdict coloured separately.
  std::vector<size_t> shown;  // verdicts with a column
  for (size_t v = 0; v < kVerdictCount; ++v)
    if (total.counts[v] > 0) shown.push_back(v);
  auto cells = [&](const Row& row) {
    std::vector<std::string> c = {row.kernel, row.contract, row.backend};
    for (size_t v : shown) c.push_back(row.counts[v] ? std::to_string(row.counts[v]) : "");
    c.push_back(std::string(verdictName(row.worst)));
    c.push_back(join(row.signatures, ", "));
    return c;
  };
  std::vector<std::string> header = {"kernel", "contract", "backend"};
  for (size_t v : shown) header.push_back(std::string(verdictName(static_cast<Verdict>(v))));
  header.push_back("verdict");
  header.push_back("signatures");

  std::vector<std::vector<std::string>> table = {header};
  for (const Row& row : rows) table.push_back(cells(row));
  table.push_back(cells(total));
  std::vector<size_t> width(header.size(), 0);
  for (const auto& line : table)
    for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());

  const size_t verdictColumn = header.size() - 2;
  auto render = [&](const std::vector<std::string>& line, const Row* row) {
    std::string s;
    for (size_t i = 0; i < line.size(); ++i) {
      if (i) s += "  ";
      const bool count = i >= 3 && i < verdictColumn && row;  // right-aligned numbers
      const std::string pad(width[i] - line[i].size(), ' ');
      const std::string text = i == verdictColumn && row ? colored(row->worst, line[i], color) : line[i];
      s += count ? pad + text : text + pad;
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = render(header, nullptr);
  for (size_t i = 0; i < rows.size(); ++i) out += render(table[i + 1], &rows[i]);
  size_t ruleWidth = 0;
  for (size_t w : width) ruleWidth += w + 2;
  out += std::string(ruleWidth - 2, '-') + "\n";
  out += render(table.back(), &total);
  for (const Row& row : rows)
    for (const auto* list : {&row.skips, &row.mistrusts})
      for (const auto& [reason, n] : *list)
        out += std::string(list == &row.skips ? "skipped: " : "mistrusted: ") + row.kernel + "  " + row.contract + "  " +
               row.backend + ": " + std::to_string(n) + (n == 1 ? " case: " : " cases: ") + reason + "\n";
  return out;
}

std::string progressText(size_t done, size_t total, std::string_view current, size_t barWidth) {
  done = std::min(done, total);
  const size_t filled = total ? done * barWidth / total : 0;
  std::string s = "[" + std::string(filled, '#') + std::string(barWidth - filled, '.') + "] " +
                  std::to_string(done) + "/" + std::to_string(total) + " cases";
  if (!current.empty()) s += "  " + std::string(current);
  return s;
}

ProgressBar::ProgressBar(size_t total, bool enabled, std::FILE* out) : total_(total), enabled_(enabled), out_(out) {}

ProgressBar::~ProgressBar() { clear(); }

bool ProgressBar::isTerminal(std::FILE* f) { return f && isatty(fileno(f)); }

void ProgressBar::update(size_t done, std::string_view current) {
  if (!enabled_) return;
  std::string text = progressText(done, total_, current);
  // A line longer than the terminal wraps, and '\r' then returns to the wrong row.
  winsize ws{};
  if (ioctl(fileno(out_), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && text.size() >= ws.ws_col)
    text.resize(ws.ws_col - 1);
  std::fputs(("\r" + text + "\x1b[K").c_str(), out_);  // ESC[K: erase what a longer bar left
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::clear() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

// --format text (formats.def): the human report itself, which `kcontract check` prints with
// caseLine and summaryTable; as a format it writes nothing more.
ReportFormat textFormat() {
  ReportFormat f;
  f.name = "text";
  f.description = "the human report: a line per case as it finishes, then a summary table";
  f.machine = false;
  return f;
}

}  // namespace kc::report
