#include "checker/incident.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checker/report/text.h"
#include "checker/repro.h"

namespace kc::check {

namespace {

std::string num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string joined(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string code(const std::string& s) { return "`" + s + "`"; }

// A fenced block long enough that no run of backticks inside `text` closes it.
std::string fenced(const std::string& text, const std::string& info) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  return fence + info + "\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + fence + "\n";
}

void observed(std::ostringstream& md, const report::CaseResult& r) {
  md << "## What was observed\n\n";
  md << "- **Verdict:** " << report::verdictName(r.verdict) << ": " << r.reason << "\n";
  md << "- **Case:** " << code(r.caseId) << " (" << r.why << "), backend " << r.backend << "\n";
  md << "- **Kernel:** " << code(r.kernel) << (r.name.empty() ? "" : " (" + r.name + ")") << "\n";
  std::vector<std::string> shape;
  for (const auto& [n, v] : r.dims) shape.push_back(n + "=" + std::to_string(v));
  for (const auto& [n, t] : r.dtypes) shape.push_back(n + "=" + t);
  if (!shape.empty()) md << "- **Shape:** " << code(joined(shape, " ")) << "\n";
  std::vector<std::string> values, layouts;
  for (const auto& [n, v] : r.values) values.push_back(n + " ~ " + v);
  for (const auto& [n, l] : r.layouts) layouts.push_back(n + ": " + l);
  if (!values.empty()) md << "- **Inputs:** " << code(joined(values, ", ")) << "\n";
  if (!layouts.empty()) md << "- **Layouts:** " << code(joined(layouts, ", ")) << "\n";
  md << "- **Seeds:** base " << r.baseSeed << ", case seed " << r.seed << " (seed " << r.seedIndex << " of the case)\n";
  if (!r.perturbation.empty()) md << "- **Perturbation:** " << r.perturbation << "\n";
  if (!r.violated.empty()) {
    md << "- **Violated:**\n";
    for (const auto& v : r.violated) md << "  - " << code(v) << "\n";
  }
  if (r.compared > 0)
    md << "- **Cells:** " << r.mismatched << " of " << r.compared << " compared cells broke a postcondition; largest |y - y*| "
       << num(r.maxAbsError) << ", " << num(r.maxUlps) << " ulps, " << num(r.toleranceUsed) << " times the tolerance\n";
  if (!r.kernelOutput.empty()) md << "\nWhat the kernel printed:\n\n" << fenced(r.kernelOutput, "text");
  md << "\n";
}

void evidence(std::ostringstream& md, const report::CaseResult& r) {
  md << "## Signatures and their evidence\n\n";
  std::vector<std::string> shown = report::shownSignatures(r);
  md << "- **Signatures this case matches:** " << (shown.empty() ? std::string("none") : code(joined(shown, ", "))) << "\n";
  if (!r.confirmed.empty())
    md << "- **Confirmed by a control run** (the same case on neutral inputs and contiguous views passed): "
       << code(joined(r.confirmed, ", ")) << "\n";
  for (const auto& [sig, held] : r.conditions)
    md << "- **Condition of " << code(sig) << ":** " << (held ? "held" : "did not hold") << " on this case\n";
  if (r.sanitizer) {
    md << "- **compute-sanitizer:**\n";
    for (const auto& line : report::sanitizerLines(r)) md << "  - " << line << "\n";
  }
  if (!r.worst.empty()) {
    md << "\nThe worst cells, worst first:\n\n";
    md << "| tensor | index | got | expected | abs error | ulps | tolerance | never written |\n";
    md << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& w : r.worst)
      md << "| " << w.tensor << " | " << report::formatIndex(w.index) << " | " << num(w.got) << " | " << num(w.expected) << " | "
         << num(w.absError) << " | " << num(w.ulps) << " | " << (std::isnan(w.tolerance) ? "none" : num(w.tolerance)) << " | "
         << (w.unwritten ? "yes" : "") << " |\n";
  }
  md << "\n";
}

}  // namespace

std::string incidentMarkdown(const IncidentInput& in) {
  const report::CaseResult& r = in.result;
  std::ostringstream md;
  if (!in.notes.empty()) {
    md << in.notes << (in.notes.back() == '\n' ? "" : "\n") << "\n";
  } else {
    std::vector<std::string> shown = report::shownSignatures(r);
    md << "# Incident: " << (shown.empty() ? std::string(report::verdictName(r.verdict)) : joined(shown, ", ")) << " in "
       << code(r.kernel) << "\n\n";
  }
  md << "**Contract:** " << code(r.contract) << ", case " << code(r.caseId) << ": " << report::verdictName(r.verdict) << ".\n\n";
  observed(md, r);
  md << "## The contract\n\n" << code(r.contract) << ", declared at " << in.contractWhere << ":\n\n";
  if (!in.contractText.empty()) md << fenced(in.contractText, "kcontract");
  md << "\n";
  evidence(md, r);
  md << "## Replay\n\nFrom " << in.replayFrom << ":\n\n" << fenced(in.replay, "sh") << "\n";
  md << "## Environment\n\nOf the machine that wrote this report.\n\n";
  for (const auto& [k, v] : in.env.facts) md << "- **" << k << ":** " << v << "\n";
  return md.str();
}

std::string declarationText(const std::string& file, int line, std::string& error) {
  std::ifstream in(file);
  if (!in) {
    error = "cannot read '" + file + "'";
    return "";
  }
  std::string text, l;
  int n = 0, depth = 0;
  bool opened = false, inBlockComment = false;
  while (std::getline(in, l)) {
    if (++n < line) continue;
    text += l + "\n";
    bool inString = false;
    for (size_t i = 0; i < l.size(); ++i) {
      char c = l[i], next = i + 1 < l.size() ? l[i + 1] : '\0';
      if (inBlockComment) {
        if (c == '*' && next == '/') inBlockComment = false, ++i;
      } else if (inString) {
        if (c == '"') inString = false;
      } else if (c == '/' && next == '/') {
        break;
      } else if (c == '/' && next == '*') {
        inBlockComment = true, ++i;
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        ++depth, opened = true;
      } else if (c == '}' && --depth == 0 && opened) {
        return text;
      }
    }
  }
  error = line > n ? "'" + file + "' has no line " + std::to_string(line) : "no body closes in '" + file + "'";
  return "";
}

std::string shareableRepro(const std::string& repro, std::string& from) {
  std::string error;
  auto parsed = parseRepro(repro, error);
  if (!parsed) {
    from = "the folder the check ran in";
    return repro;
  }
  Repro r = resolvedFromDir(*parsed);
  std::string top = gitTopLevel(r.impl);
  namespace fs = std::filesystem;
  auto inside = [&](std::string& p) {
    if (p.empty() || p[0] != '/') return false;  // still relative: where it was resolved from is unknown
    fs::path rel = fs::path(p).lexically_relative(top);
    if (rel.empty() || *rel.begin() == "..") return false;
    p = rel.string();
    return true;
  };
  bool ok = !top.empty() && inside(r.file) && inside(r.impl);
  for (auto& d : r.includeDirs) ok = ok && inside(d);
  if (!ok) {
    from = parsed->dir.empty() ? "the folder the check ran in" : "any folder";
    return repro;
  }
  r.dir.clear();
  from = "the root of the kernel's repository";
  return formatRepro(r);
}

}  // namespace kc::check
