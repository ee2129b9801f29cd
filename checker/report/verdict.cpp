#include <array>

#include "checker/report/result.h"

namespace kc::report {

namespace {
constexpr std::array<std::string_view, kVerdictCount> kNames = {"PASS",    "FAIL",  "MISTRUSTED", "CRASH",
                                                                 "TIMEOUT", "ERROR", "SKIPPED",    "UNKNOWN"};
}

std::string_view verdictName(Verdict v) { return kNames[static_cast<size_t>(v)]; }

std::optional<Verdict> parseVerdict(std::string_view s) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == s) return static_cast<Verdict>(i);
  return std::nullopt;
}

bool isViolation(Verdict v) {
  return v == Verdict::Fail || v == Verdict::Crash || v == Verdict::Timeout || v == Verdict::Error;
}

}  // namespace kc::report
