#pragma once
// The built-in signatures: failures the checker names itself, without a contract's
// signature (docs/checking.md). Every built-in use of one of these names goes through this
// header: the judge (run/judge.cpp, run/big_case.cpp) names the failures, calibration
// accepts them in a manifest entry (`signature: batch-variant`) as it accepts a contract's
// own. kUnclassified is no signature: it is what the reports show for a FAIL that matched
// none.
#include <array>
#include <string_view>

namespace kc::report::signature {

inline constexpr char kOutOfBoundsWrite[] = "out-of-bounds-write";    // a write beyond the allocation (canary)
inline constexpr char kOutOfViewWrite[] = "out-of-view-write";        // a write inside the allocation, outside the view
inline constexpr char kInputModified[] = "input-modified";            // an input's bytes changed
inline constexpr char kDeviceMemoryLeak[] = "device-memory-leak";     // the kernel left device memory allocated
inline constexpr char kUnwrittenCells[] = "unwritten-cells";          // output cells still hold the poison
inline constexpr char kNondeterministic[] = "nondeterministic";       // two launches gave different bits
inline constexpr char kPreconditionUnreported[] = "precondition-unreported";  // returned 0 on a violated precondition
inline constexpr char kBatchVariant[] = "batch-variant";              // a sub-batch's rows differ from the full batch's
inline constexpr char kStreamLeak[] = "stream-leak";                  // the kernel created a stream per launch and kept it
inline constexpr char kOutputNeverComputed[] = "output-never-computed";  // a repeat launch wrote nothing: a result reused

inline constexpr std::array<std::string_view, 10> kBuiltIn = {
    kOutOfBoundsWrite, kOutOfViewWrite,         kInputModified, kDeviceMemoryLeak, kUnwrittenCells,
    kNondeterministic, kPreconditionUnreported, kBatchVariant,  kStreamLeak,       kOutputNeverComputed};

inline bool isBuiltIn(std::string_view name) {
  for (std::string_view n : kBuiltIn)
    if (n == name) return true;
  return false;
}

// Shown for a FAIL that matched no signature.
inline constexpr char kUnclassified[] = "unclassified";

}  // namespace kc::report::signature
