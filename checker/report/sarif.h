#pragma once
// SARIF 2.1.0 for code scanning: a rule per contract, a result per case that did not pass,
// located at the contract's declaration.
#include <string>
#include <vector>

#include "checker/report/result.h"

namespace kc::report {

// Levels: "error" for FAIL, CRASH, TIMEOUT, ERROR; "warning" for MISTRUSTED; "note" for
// SKIPPED, UNKNOWN. The rules list every contract of `results`, passing or not.
// `sandbox` and `dataFolder`, when known, go into the run's properties.
// Locations are relative to a base (originalUriBaseIds): a contract under `sourceRoot` (the
// folder the check ran in, as a code-scanning upload expects: the repository) is
// {uri: "path/in/repo", uriBaseId: "SRCROOT"}; one under the data folder (the standard
// library) is relative to "KCDATA"; any other is an absolute file:// URI.
std::string sarifJson(const std::vector<CaseResult>& results, const std::string& toolVersion, const std::string& sandbox = "",
                      const std::string& dataFolder = "", const std::string& sourceRoot = "");

// `path` as a file:// URI (percent-encoded where RFC 3986 needs it).
std::string fileUri(const std::string& absolutePath);

}  // namespace kc::report
