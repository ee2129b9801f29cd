#pragma once
// JSON Lines: one object per case, written as the case finishes, so a killed run loses at
// most the line being written. `--resume` and `kcontract replay` read the lines back.
#include <optional>
#include <string>

#include "checker/report/result.h"

namespace kc::report {

// One line of JSON (no newline in it, none at the end), keys in a fixed order. Doubles that
// are not finite are written as the strings "nan", "inf", "-inf" (JSON has no such numbers).
// Bytes that are not valid UTF-8 (kernel output) are replaced by U+FFFD; everything else
// reads back exactly.
std::string caseJson(const CaseResult& r);

// The inverse of caseJson. Every key but kernel_output and repro is required; unknown keys
// are ignored. A line that is not a complete JSON object (the run died while writing it) or
// has a missing or mistyped field gives nullopt and a message in `error`.
std::optional<CaseResult> parseCaseJson(const std::string& line, std::string& error);

// What identifies a case across runs: case id, kernel and backend joined by '\t'.
std::string resumeKey(const CaseResult& r);

}  // namespace kc::report
