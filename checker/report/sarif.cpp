#include "checker/report/sarif.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "checker/report/format.h"
#include "checker/report/text.h"

namespace kc::report {

namespace {

using Json = nlohmann::ordered_json;

const char* level(Verdict v) {
  if (isViolation(v)) return "error";
  return v == Verdict::Mistrusted ? "warning" : "note";
}

std::string messageText(const CaseResult& r) {
  std::string text = std::string(verdictName(r.verdict)) + " " + r.caseId;
  if (!r.reason.empty()) text += ": " + r.reason;
  const auto signatures = shownSignatures(r);
  for (size_t i = 0; i < signatures.size(); ++i) text += (i ? ", " : " (signature: ") + signatures[i];
  if (!signatures.empty()) text += ")";
  if (r.sanitizer) text += "; " + sanitizerLines(r).front();
  return text;
}

}  // namespace

std::string sarifJson(const std::vector<CaseResult>& results, const std::string& toolVersion, const std::string& sandbox,
                      const std::string& dataFolder) {
  std::vector<std::string> contracts;
  for (const CaseResult& r : results)
    if (std::find(contracts.begin(), contracts.end(), r.contract) == contracts.end()) contracts.push_back(r.contract);

  Json rules = Json::array();
  for (const auto& id : contracts)
    rules.push_back({{"id", id}, {"shortDescription", {{"text", "kcontract contract " + id}}}});

  Json out = Json::array();
  for (const CaseResult& r : results) {
    // A PASS appears only with a sanitizer's findings attached (`check --sanitize`).
    bool sanitized = r.sanitizer && r.sanitizer->errors > 0;
    if (r.verdict == Verdict::Pass && !sanitized) continue;
    Json result;
    result["ruleId"] = r.contract;
    result["ruleIndex"] = std::find(contracts.begin(), contracts.end(), r.contract) - contracts.begin();
    result["level"] = level(r.verdict);
    result["message"] = {{"text", messageText(r)}};
    if (!r.contractFile.empty()) {
      Json physical = {{"artifactLocation", {{"uri", r.contractFile}}}};
      if (r.contractLine > 0) physical["region"] = {{"startLine", r.contractLine}};
      result["locations"] = Json::array({{{"physicalLocation", physical}}});
    }
    result["properties"] = {{"case", r.caseId},
                            {"kernel", r.kernel},
                            {"backend", r.backend},
                            {"verdict", verdictName(r.verdict)},
                            {"signatures", shownSignatures(r)},
                            {"repro", r.repro}};
    if (!r.perturbation.empty()) result["properties"]["perturbation"] = r.perturbation;
    if (r.sanitizer) result["properties"]["sanitizer"] = sanitizerLines(r);
    out.push_back(std::move(result));
  }

  Json driver = {{"name", "kcontract"},
                 {"version", toolVersion},
                 {"informationUri", "https://github.com/kcontract/kcontract"},
                 {"rules", std::move(rules)}};
  Json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", Json::array({{{"tool", {{"driver", std::move(driver)}}}, {"results", std::move(out)}}})}};
  if (!sandbox.empty()) sarif["runs"][0]["properties"]["sandbox"] = sandbox;
  if (!dataFolder.empty()) sarif["runs"][0]["properties"]["dataFolder"] = dataFolder;
  return sarif.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// --format sarif (formats.def): one document at the end.
ReportFormat sarifFormat() {
  ReportFormat f;
  f.name = "sarif";
  f.description = "SARIF 2.1.0 for code scanning: a result per case that did not pass, at the contract";
  f.document = [](const std::vector<CaseResult>& results, const FormatContext& c) {
    return sarifJson(results, c.toolVersion, c.sandbox, c.dataFolder);
  };
  return f;
}

}  // namespace kc::report
