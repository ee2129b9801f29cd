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
std::string sarifJson(const std::vector<CaseResult>& results, const std::string& toolVersion, const std::string& sandbox = "",
                      const std::string& dataFolder = "");

}  // namespace kc::report
