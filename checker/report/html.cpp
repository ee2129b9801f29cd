// `kcontract check --format html`: one self-contained page (docs/checking.md, "The HTML
// report"). The verdict table with its filters, then per job (kernel, contract, backend) its
// diagnosis, a pass/fail map over its dims, error ÷ tolerance per case, and per failing case
// the worst cells, the signatures with their evidence and the replay line. Everything a
// kernel printed or named is escaped: a hostile kernel's output is text on the page.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

#include "checker/report/format.h"
#include "checker/report/html_assets.h"
#include "checker/report/html_plots.h"
#include "checker/report/junit.h"
#include "checker/report/text.h"

namespace kc::report {

namespace {

std::string esc(std::string_view s) { return xmlEscape(s, true); }

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string joined(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? std::string(sep) : "") + parts[i];
  return s;
}

// A layout's kind: "padded(8)" is "padded".
std::string layoutKind(const std::string& layout) { return layout.substr(0, layout.find('(')); }

struct Job {
  std::string label, impl, contract, backend;
  std::vector<const CaseResult*> cases;
  const Diagnosis* diagnosis = nullptr;
  size_t index = 0;
};

std::vector<Job> jobsOf(const std::vector<CaseResult>& results, const std::vector<Diagnosis>& diagnoses) {
  std::vector<Job> jobs;
  for (const CaseResult& r : results) {
    const std::string& label = r.name.empty() ? r.kernel : r.name;  // as the summary table names it
    auto it = std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) {
      return j.label == label && j.contract == r.contract && j.backend == r.backend;
    });
    if (it == jobs.end()) it = jobs.insert(jobs.end(), Job{label, r.kernel, r.contract, r.backend, {}, nullptr, jobs.size()});
    it->cases.push_back(&r);
  }
  for (Job& j : jobs)
    for (const Diagnosis& d : diagnoses)
      if (!d.empty() && d.kernel == j.impl && d.contract == j.contract && d.backend == j.backend) j.diagnosis = &d;
  return jobs;
}

std::string caseAnchor(const Job& j, const CaseResult& r) {
  return "case-" + std::to_string(j.index) + "-" + std::to_string(r.number) + "-" + std::to_string(r.seedIndex);
}

std::string verdictSpan(Verdict v) {
  std::string name(verdictName(v));
  return "<span class=\"verdict v-" + name + "\">" + name + "</span>";
}

std::string counts(const std::vector<const CaseResult*>& cases) {
  std::array<size_t, kVerdictCount> n{};
  for (const CaseResult* r : cases) ++n[static_cast<size_t>(r->verdict)];
  std::vector<std::string> parts;
  for (size_t v = 0; v < kVerdictCount; ++v)
    if (n[v]) parts.push_back(std::to_string(n[v]) + " " + verdictSpan(static_cast<Verdict>(v)));
  return std::to_string(cases.size()) + (cases.size() == 1 ? " case: " : " cases: ") + joined(parts, ", ");
}

std::string pairs(const std::vector<std::pair<std::string, std::string>>& kv, std::string_view sep) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : kv) parts.push_back(k + std::string(sep) + v);
  return joined(parts, " ");
}

// A <select class="filter"> of the distinct values, in order of first appearance.
std::string filterSelect(const std::string& key, const std::string& label, const std::vector<std::string>& values) {
  std::string s = "<label>" + label + "<select class=\"filter\" id=\"filter-" + key + "\" data-key=\"" + key +
                  "\"><option value=\"\">all</option>";
  for (const auto& v : values) s += "<option value=\"" + esc(v) + "\">" + esc(v) + "</option>";
  return s + "</select></label>\n";
}

void addOnce(std::vector<std::string>& list, const std::string& v) {
  if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

std::string verdictTable(const std::vector<Job>& jobs, size_t total) {
  std::vector<std::string> verdicts, signatures, dtypes, layouts;
  std::string rows;
  for (const Job& j : jobs)
    for (const CaseResult* r : j.cases) {
      std::vector<std::string> sigs = shownSignatures(*r), dts, lays;
      for (const auto& [_, d] : r->dtypes) addOnce(dts, d);
      for (const auto& [_, l] : r->layouts) addOnce(lays, layoutKind(l));
      addOnce(verdicts, std::string(verdictName(r->verdict)));
      for (const auto& v : sigs) addOnce(signatures, v);
      for (const auto& v : dts) addOnce(dtypes, v);
      for (const auto& v : lays) addOnce(layouts, v);
      std::vector<std::string> dims;
      for (const auto& [k, v] : r->dims) dims.push_back(k + "=" + std::to_string(v));
      const bool detailed = isViolation(r->verdict);
      std::string id = detailed ? "<a href=\"#" + caseAnchor(j, *r) + "\">" + esc(r->caseId) + "</a>" : esc(r->caseId);
      rows += "<tr data-verdict=\"" + std::string(verdictName(r->verdict)) + "\" data-signature=\"" +
              esc(joined(sigs, "|")) + "\" data-dtype=\"" + esc(joined(dts, "|")) + "\" data-layout=\"" +
              esc(joined(lays, "|")) + "\"><td>" + esc(j.label) + "</td><td>" + esc(r->backend) + "</td><td>" + id +
              "</td><td>" + verdictSpan(r->verdict) + "</td><td>" + esc(joined(sigs, ", ")) + "</td><td>" +
              esc(joined(dims, " ")) + "</td><td>" + esc(pairs(r->dtypes, "=")) + "</td><td>" +
              esc(pairs(r->layouts, ":")) + "</td><td class=\"num\">" +
              (r->compared > 0 ? number(r->toleranceUsed) : "") + "</td><td class=\"num\">" + number(r->seconds) +
              "</td></tr>\n";
    }
  std::string s = "<section id=\"verdicts\">\n<h2>Verdicts</h2>\n<div class=\"filters\">\n";
  s += filterSelect("verdict", "verdict", verdicts) + filterSelect("signature", "signature", signatures) +
       filterSelect("dtype", "dtype", dtypes) + filterSelect("layout", "layout", layouts);
  s += "</div>\n<p id=\"shown\" class=\"note\">" + std::to_string(total) + " of " + std::to_string(total) +
       " cases shown</p>\n<table id=\"cases\">\n<thead><tr><th>kernel</th><th>backend</th><th>case</th><th>verdict</th>"
       "<th>signatures</th><th>dims</th><th>dtypes</th><th>layouts</th><th>error \xC3\xB7 tol</th><th>seconds</th>"
       "</tr></thead>\n<tbody>\n" +
       rows + "</tbody>\n</table>\n</section>\n";
  return s;
}

std::string worstCells(const CaseResult& r) {
  if (r.worst.empty()) return "";
  std::string s = "<table class=\"worst\"><thead><tr><th>tensor</th><th>index</th><th>got</th><th>expected</th>"
                  "<th>|error|</th><th>ulps</th><th>tolerance</th><th></th></tr></thead><tbody>\n";
  for (const WorstCell& c : r.worst)
    s += "<tr><td>" + esc(c.tensor) + "</td><td>" + esc(formatIndex(c.index)) + "</td><td class=\"num\">" +
         number(c.got) + "</td><td class=\"num\">" + number(c.expected) + "</td><td class=\"num\">" +
         number(c.absError) + "</td><td class=\"num\">" + number(c.ulps) + "</td><td class=\"num\">" +
         (std::isnan(c.tolerance) ? "" : number(c.tolerance)) + "</td><td>" + (c.unwritten ? "never written" : "") +
         "</td></tr>\n";
  return s + "</tbody></table>\n";
}

// Why each name stands: a control run, a condition, the job's diagnosis.
std::string evidence(const CaseResult& r, const Diagnosis* d) {
  std::string s = "<ul class=\"evidence\">\n";
  for (const auto& sig : shownSignatures(r)) {
    std::vector<std::string> why;
    if (std::find(r.confirmed.begin(), r.confirmed.end(), sig) != r.confirmed.end())
      why.push_back("a control run on neutral inputs passed");
    for (const auto& [name, held] : r.conditions)
      if (name == sig) why.push_back(held ? "its condition holds on this case" : "its condition does not hold on this case");
    s += "<li><b>" + esc(sig) + "</b>" + (why.empty() ? "" : ": " + esc(joined(why, "; "))) + "</li>\n";
  }
  if (d)
    for (const Cause& c : d->causes)
      if (std::find(c.cases.begin(), c.cases.end(), r.number) != c.cases.end())
        s += "<li>diagnosis: <b>" + esc(c.name) + "</b> \xE2\x80\x94 " + esc(c.evidence) + "</li>\n";
  return s + "</ul>\n";
}

// `open`: shown unfolded (the job's first failure).
std::string failure(const Job& j, const CaseResult& r, bool open) {
  std::string s = "<details class=\"failure\" id=\"" + caseAnchor(j, r) + "\"" + (open ? " open" : "") + "><summary>" + esc(r.caseId) + " " +
                  verdictSpan(r.verdict) + " " + esc(joined(shownSignatures(r), ", ")) + "</summary>\n";
  s += "<p>" + esc(r.reason) + "</p>\n";
  if (!r.violated.empty()) {
    s += "<h4>Violated</h4><ul>\n";
    for (const auto& v : r.violated) s += "<li><code>" + esc(v) + "</code></li>\n";
    s += "</ul>\n";
  }
  s += "<h4>Signatures and their evidence</h4>\n" + evidence(r, j.diagnosis);
  if (!r.worst.empty())
    s += "<h4>Worst cells (" + std::to_string(r.mismatched) + " of " + std::to_string(r.compared) + " wrong)</h4>\n" +
         worstCells(r);
  std::vector<std::string> more = sanitizerLines(r);
  if (!r.perturbation.empty()) more.insert(more.begin(), "perturbation: " + r.perturbation);
  if (!more.empty()) s += "<pre>" + esc(joined(more, "\n")) + "</pre>\n";
  if (!r.kernelOutput.empty()) s += "<h4>Kernel output</h4><pre class=\"output\">" + esc(r.kernelOutput) + "</pre>\n";
  if (!r.repro.empty()) s += "<h4>Replay</h4><pre class=\"repro\">" + esc(r.repro) + "</pre>\n";
  return s + "</details>\n";
}

std::string legend() {
  std::string s = "<p class=\"legend\">";
  for (Verdict v : {Verdict::Pass, Verdict::Fail, Verdict::Crash, Verdict::Timeout, Verdict::Error, Verdict::Mistrusted,
                    Verdict::Skipped})
    s += "<span><i style=\"background:" + std::string(verdictColor(v)) + "\"></i>" + std::string(verdictName(v)) + "</span>";
  return s + "</p>\n";
}

std::string jobSection(const Job& j) {
  Verdict worst = Verdict::Skipped;
  bool any = false;
  for (const CaseResult* r : j.cases)
    if (r->verdict != Verdict::Skipped) worst = any ? worseVerdict(worst, r->verdict) : r->verdict, any = true;
  std::string s = "<section class=\"job\" id=\"job-" + std::to_string(j.index) + "\">\n<h3>" + esc(j.label) + " " +
                  verdictSpan(worst) + "</h3>\n<p class=\"meta\">" + esc(j.impl) + " against " + esc(j.contract) + " on " +
                  esc(j.backend) + "; " + counts(j.cases) + "</p>\n";
  if (j.diagnosis) s += "<h4>Diagnosis</h4><pre class=\"diagnosis\">" + esc(diagnosisText(*j.diagnosis)) + "</pre>\n";
  s += "<h4>Verdicts over the dims</h4>\n" + verdictMapSvg(j.cases) + legend();
  s += "<h4>Error \xC3\xB7 tolerance per case</h4>\n" + toleranceSvg(j.cases);
  std::string failures;
  for (const CaseResult* r : j.cases)
    if (isViolation(r->verdict)) failures += failure(j, *r, failures.empty());
  if (!failures.empty()) s += "<h4>Failing cases</h4>\n" + failures;
  return s + "</section>\n";
}

std::string htmlDocument(const std::vector<CaseResult>& results, const FormatContext& context) {
  std::vector<Job> jobs = jobsOf(results, context.diagnoses);
  std::vector<const CaseResult*> all;
  for (const CaseResult& r : results) all.push_back(&r);
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta name=\"generator\" content=\"kcontract " + esc(context.toolVersion) + "\">\n"
                  "<title>kcontract check: " + std::to_string(results.size()) + " cases</title>\n<style>" +
                  std::string(kHtmlStyle) + "</style>\n</head>\n<body>\n<h1>kcontract check</h1>\n";
  s += "<p class=\"meta\">kcontract " + esc(context.toolVersion);
  if (!context.dataFolder.empty()) s += " \xC2\xB7 data folder " + esc(context.dataFolder);
  if (!context.sandbox.empty()) s += " \xC2\xB7 " + esc(context.sandbox);
  s += "</p>\n<p id=\"totals\">" + (results.empty() ? std::string("no cases") : counts(all)) + "</p>\n";
  s += verdictTable(jobs, results.size());
  s += "<section id=\"kernels\">\n<h2>Kernels</h2>\n";
  for (const Job& j : jobs) s += jobSection(j);
  s += "</section>\n<script>" + std::string(kHtmlScript) + "</script>\n</body>\n</html>\n";
  return s;
}

}  // namespace

ReportFormat htmlFormat() {
  ReportFormat f;
  f.name = "html";
  f.description = "one self-contained HTML page: the verdict table with filters, per kernel a pass/fail map over its "
                  "dims, error over tolerance per case, and each failing case's worst cells, evidence and replay line";
  f.document = htmlDocument;
  return f;
}

}  // namespace kc::report
