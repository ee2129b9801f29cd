#include "mutate/report.h"

#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mutate/families.h"

namespace kc::mutate {

namespace {

std::string pad(const std::string& s, size_t n) { return s.size() >= n ? s + " " : s + std::string(n - s.size(), ' '); }

std::string html(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string allcloseWord(const MutantResult& m) {
  if (!m.allcloseRan) return "-";
  if (!m.allclose.built) return "not-built";
  return m.allclose.killed ? "killed" : "passes";
}

// Why a survivor survived, as far as the run can tell.
std::string survivorWhy(const MutantResult& m) {
  const Family* f = family(m.mutant.family);
  return std::string("outputs differ from the unmutated kernel's, yet every case passes: the differences are within "
                     "the contract's tolerance, or the cases that would expose them (") +
         (f ? f->what : m.mutant.family) + ") are not in the plan run";
}

}  // namespace

std::string suggestionLine(const Suggestion& s) {
  if (s.change.empty())
    return "no suggestion: none of the " + std::to_string(s.tried) +
           " plan changes tried kills it with the unmutated kernel passing (equivalent in exact arithmetic, or a fault "
           "those changes do not reach)";
  return "suggested: `" + s.change + "` kills it (" + s.killedBy + (s.named ? ", named" : ", not named") +
         "); the unmutated kernel passes the change's " + std::to_string(s.originalCases) + " cases";
}

bool isReportFormat(const std::string& name) { return name == "text" || name == "json" || name == "html"; }

std::string fraction(size_t part, size_t whole) {
  char buf[64];
  if (whole == 0) std::snprintf(buf, sizeof buf, "%zu of %zu", part, whole);
  else std::snprintf(buf, sizeof buf, "%zu of %zu (%.1f%%)", part, whole, 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buf;
}

std::string mutantLine(const MutantResult& m) {
  std::string what = outcomeName(m.outcome);
  std::string detail;
  if (m.outcome == Outcome::Killed)
    detail = (m.contract.named ? "named  " : "unnamed  ") + (m.contract.cause.empty() ? "" : m.contract.cause + ": ") + m.contract.killedBy;
  else if (m.outcome == Outcome::NotBuilt) detail = m.contract.buildError.substr(0, 120);
  else if (m.outcome == Outcome::Survived) detail = "passes " + std::to_string(m.contract.cases) + " cases";
  else detail = "the original's outputs on " + std::to_string(m.contract.cases) + " cases";
  std::string ac = m.allcloseRan ? "  | allclose: " + allcloseWord(m) : "";
  return pad(what, 11) + pad(m.mutant.id, 22) + pad(m.mutant.family, 12) + m.mutant.description + "  -- " + detail + ac;
}

void writeScores(std::ostream& out, const MutationReport& r) {
  std::string contracts;
  for (const auto& c : r.contracts) contracts += (contracts.empty() ? "" : ", ") + c;
  if (r.originalKills) {
    out << "mutate: the unmutated kernel " << r.kernel << " fails " << contracts << " (" << r.originalFailure
        << "); no mutant is scored against a contract the kernel breaks\n";
    return;
  }
  const FamilyScore& t = r.total();
  out << "mutate: " << t.mutants << " mutants of " << r.entry << " (" << r.kernel << ", " << r.language << "): " << t.notBuilt
      << " do not build, " << t.equivalent << " equivalent, " << t.scored << " scored\n";
  out << "mutate: unmutated kernel: 0 kills in " << r.originalCases << " cases of " << contracts << "\n";
  out << "mutate: contract kills " << fraction(t.killed, t.scored) << "\n";
  out << "mutate: naming: " << fraction(t.named, t.killed) << " killed mutants named by their family's signature\n";
  if (r.suggestChanges) {
    size_t survivors = 0, suggested = 0;
    for (const auto& m : r.mutants)
      if (m.suggestion) {
        ++survivors;
        if (!m.suggestion->change.empty()) ++suggested;
      }
    out << "mutate: suggestions: a plan change kills " << suggested << " of " << survivors << " surviving mutants ("
        << r.suggestChanges << " changes tried)\n";
  }
  if (std::any_of(r.mutants.begin(), r.mutants.end(), [](const MutantResult& m) { return m.allcloseRan; }) || t.scored == 0)
    out << "mutate: allclose baseline (1 friendly shape, 5 seeds, atol = rtol = 1e-2) kills " << fraction(t.allcloseKilled, t.scored)
        << (r.allcloseOriginalKills ? "; it fails the unmutated kernel too" : "") << "\n";
}

void writeText(std::ostream& out, const MutationReport& r, bool withMutantLines) {
  if (r.listOnly) {
    for (const auto& m : r.mutants) out << pad(m.mutant.id, 22) << pad(m.mutant.family, 12) << m.mutant.description << "\n" << m.diff;
    out << "mutate: " << r.mutants.size() << " mutants of " << r.entry << " (" << r.kernel << ")\n";
    if (!r.emitted.empty()) out << "mutate: mutant set written to " << r.emitted << " (run it with --from)\n";
    return;
  }
  if (withMutantLines)
    for (const auto& m : r.mutants) out << mutantLine(m) << "\n";
  if (!r.originalKills) {
    out << "\n" << pad("family", 13) << pad("mutants", 9) << pad("not-built", 10) << pad("equivalent", 11) << pad("contract", 18)
        << pad("named", 18) << "allclose\n";
    for (const auto& f : r.families)
      out << pad(f.family, 13) << pad(std::to_string(f.mutants), 9) << pad(std::to_string(f.notBuilt), 10)
          << pad(std::to_string(f.equivalent), 11) << pad(std::to_string(f.killed) + "/" + std::to_string(f.scored), 18)
          << pad(std::to_string(f.named) + "/" + std::to_string(f.killed), 18)
          << std::to_string(f.allcloseKilled) + "/" + std::to_string(f.scored) << "\n";
    bool any = false;
    for (const auto& m : r.mutants) {
      if (m.outcome != Outcome::Survived) continue;
      if (!any) out << "\nsurviving mutants:\n";
      any = true;
      out << m.mutant.id << " (" << m.mutant.family << ", in " << m.mutant.function << "): " << m.mutant.description << "\n  "
          << survivorWhy(m) << "\n";
      if (m.suggestion) out << "  " << suggestionLine(*m.suggestion) << "\n";
      out << m.diff;
    }
    out << "\n";
  }
  writeScores(out, r);
}

void writeJson(std::ostream& out, const MutationReport& r) {
  using nlohmann::json;
  json j;
  j["kernel"] = r.kernel;
  j["entry"] = r.entry;
  j["language"] = r.language;
  j["contracts"] = r.contracts;
  j["backend"] = r.backend;
  j["original"] = {{"cases", r.originalCases}, {"kills", r.originalKills}, {"failure", r.originalFailure},
                   {"allclose_kills", r.allcloseOriginalKills}};
  json ms = json::array();
  for (const auto& m : r.mutants) {
    json x = {{"id", m.mutant.id},         {"operator", m.mutant.op},       {"family", m.mutant.family},
              {"function", m.mutant.function}, {"line", m.mutant.line},     {"column", m.mutant.column},
              {"description", m.mutant.description}, {"diff", m.diff}};
    if (!r.listOnly) {
      x["outcome"] = outcomeName(m.outcome);
      x["cases"] = m.contract.cases;
      x["killed_by"] = m.contract.killedBy;
      x["signatures"] = m.contract.signatures;
      x["named"] = m.contract.named;
      if (!m.contract.cause.empty()) x["cause"] = m.contract.cause;
      if (!m.contract.built) x["build_error"] = m.contract.buildError;
      if (m.allcloseRan) x["allclose"] = allcloseWord(m);
      if (m.suggestion)
        x["suggestion"] = {{"change", m.suggestion->change}, {"killed_by", m.suggestion->killedBy},
                           {"named", m.suggestion->named}, {"original_cases", m.suggestion->originalCases},
                           {"tried", m.suggestion->tried}};
      x["seconds"] = m.seconds;
    }
    ms.push_back(x);
  }
  j["mutants"] = ms;
  json fs = json::array();
  for (const auto& f : r.families)
    fs.push_back({{"family", f.family}, {"mutants", f.mutants}, {"not_built", f.notBuilt}, {"equivalent", f.equivalent},
                  {"scored", f.scored}, {"killed", f.killed}, {"named", f.named}, {"allclose_killed", f.allcloseKilled}});
  j["families"] = fs;
  if (r.suggestChanges) j["suggest_changes"] = r.suggestChanges;
  j["seconds"] = r.seconds;
  out << j.dump(2) << "\n";
}

void writeHtml(std::ostream& out, const MutationReport& r) {
  std::ostringstream scores;
  writeScores(scores, r);
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>kcontract mutate: " << html(r.entry)
      << "</title>\n<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}"
         ".killed{background:#dfd}.survived{background:#fdd}.equivalent,.not-built{color:#888}pre{margin:0}</style></head><body>\n";
  out << "<h1>" << html(r.entry) << " <small>" << html(r.kernel) << "</small></h1>\n<pre>" << html(scores.str()) << "</pre>\n";
  out << "<h2>Families</h2>\n<table><tr><th>family</th><th>mutants</th><th>not built</th><th>equivalent</th><th>contract kills</th>"
         "<th>named</th><th>allclose kills</th></tr>\n";
  for (const auto& f : r.families)
    out << "<tr><td>" << f.family << "</td><td>" << f.mutants << "</td><td>" << f.notBuilt << "</td><td>" << f.equivalent
        << "</td><td>" << f.killed << "/" << f.scored << "</td><td>" << f.named << "/" << f.killed << "</td><td>"
        << f.allcloseKilled << "/" << f.scored << "</td></tr>\n";
  out << "</table>\n<h2>Mutants</h2>\n<table><tr><th>id</th><th>family</th><th>outcome</th><th>by</th><th>allclose</th><th>diff</th></tr>\n";
  for (const auto& m : r.mutants)
    out << "<tr class=\"" << outcomeName(m.outcome) << "\"><td>" << html(m.mutant.id) << "</td><td>" << html(m.mutant.family)
        << "</td><td>" << outcomeName(m.outcome) << "</td><td>" << html(m.contract.killedBy) << "</td><td>" << allcloseWord(m)
        << (m.suggestion ? "<br>" + html(suggestionLine(*m.suggestion)) : std::string())
        << "</td><td><pre>" << html(m.diff) << "</pre></td></tr>\n";
  out << "</table>\n</body></html>\n";
}

}  // namespace kc::mutate
