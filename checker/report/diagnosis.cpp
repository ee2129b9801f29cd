#include "checker/report/diagnosis.h"

#include "checker/report/builtin_signatures.h"

namespace kc::report {

std::vector<std::string> Diagnosis::names() const {
  std::vector<std::string> out;
  for (const Cause& c : causes) out.push_back(c.name);
  if (out.empty() && failing > 0) out.push_back(signature::kUnclassified);
  return out;
}

namespace {

std::string caseList(const std::vector<size_t>& cases) {
  std::string s;
  size_t shown = 0;
  for (size_t n : cases) {
    if (shown == 8) {
      s += ", ...";
      break;
    }
    s += (shown++ ? ", #" : "#") + std::to_string(n);
  }
  return s;
}

}  // namespace

std::string diagnosisText(const Diagnosis& d) {
  if (d.empty()) return "";
  std::string out = "diagnosis: " + d.kernel + ": ";
  if (d.causes.empty()) {
    out += std::string(signature::kUnclassified) + " (no cause has evidence over the " + std::to_string(d.failing) +
           " failing cases)\n";
  } else {
    const Cause& p = d.causes.front();
    out += p.name + ", explains " + std::to_string(p.cases.size()) + " of " + std::to_string(d.failing) +
           " failing cases\n";
  }
  for (size_t i = 0; i < d.causes.size(); ++i) {
    const Cause& c = d.causes[i];
    out += std::string(i == 0 ? "    cause: " : "    also:  ") + c.name + " (" + caseList(c.cases) + "): " + c.evidence + "\n";
  }
  if (!d.unexplained.empty()) out += "    unexplained: " + caseList(d.unexplained) + "\n";
  for (const auto& p : d.probes) out += "    re-run: " + p + "\n";
  for (const auto& n : d.notNamed) out += "    not named: " + n + "\n";
  return out;
}

}  // namespace kc::report
