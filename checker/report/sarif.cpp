#include "checker/report/sarif.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "checker/report/format.h"
#include "checker/report/text.h"

namespace kc::report {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

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

// A path segment's characters as a URI keeps them: unreserved, sub-delims, ':', '@' and '/'.
std::string percentEncode(const std::string& path) {
  static const std::string keep = "-._~!$&'()*+,;=:@/";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || keep.find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// `p` relative to `base` when it lies inside it ("" otherwise); both absolute and normal.
std::string inside(const fs::path& p, const std::string& base) {
  if (base.empty()) return "";
  fs::path rel = p.lexically_relative(fs::path(base).lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return "";
  return rel.generic_string();
}

Json artifactLocation(const std::string& file, const std::string& sourceRoot, const std::string& dataFolder) {
  fs::path abs = fs::path(file);
  if (abs.is_relative() && !sourceRoot.empty()) abs = fs::path(sourceRoot) / abs;
  abs = abs.lexically_normal();
  if (abs.is_relative()) return {{"uri", percentEncode(fs::path(file).generic_string())}};  // nothing to anchor it to
  if (std::string rel = inside(abs, sourceRoot); !rel.empty()) return {{"uri", percentEncode(rel)}, {"uriBaseId", "SRCROOT"}};
  if (std::string rel = inside(abs, dataFolder); !rel.empty()) return {{"uri", percentEncode(rel)}, {"uriBaseId", "KCDATA"}};
  return {{"uri", fileUri(abs.string())}};
}

}  // namespace

std::string fileUri(const std::string& absolutePath) { return "file://" + percentEncode(absolutePath); }

std::string sarifJson(const std::vector<CaseResult>& results, const std::string& toolVersion, const std::string& sandbox,
                      const std::string& dataFolder, const std::string& sourceRoot) {
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
      Json physical = {{"artifactLocation", artifactLocation(r.contractFile, sourceRoot, dataFolder)}};
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
  Json run = {{"tool", {{"driver", std::move(driver)}}}};
  // The bases the locations are relative to: a folder's URI ends in '/'.
  Json bases = Json::object();
  auto folderUri = [](const std::string& dir) {
    std::string d = fs::path(dir).lexically_normal().string();
    return fileUri(d.ends_with('/') ? d : d + "/");
  };
  if (!sourceRoot.empty()) bases["SRCROOT"] = {{"uri", folderUri(sourceRoot)}};
  if (!dataFolder.empty()) bases["KCDATA"] = {{"uri", folderUri(dataFolder)}};
  if (!bases.empty()) run["originalUriBaseIds"] = std::move(bases);
  run["results"] = std::move(out);
  Json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", Json::array({std::move(run)})}};
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
    std::error_code ec;
    return sarifJson(results, c.toolVersion, c.sandbox, c.dataFolder, fs::current_path(ec).string());
  };
  return f;
}

}  // namespace kc::report
