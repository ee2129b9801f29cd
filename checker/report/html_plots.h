#pragma once
// The HTML report's plots (docs/checking.md, "The HTML report"): inline SVG the checker draws
// itself, so the page needs nothing from the network. Each takes one job's cases (one kernel
// against one contract on one backend) in the order they ran.
#include <string>
#include <string_view>
#include <vector>

#include "checker/report/result.h"

namespace kc::report {

// The colour a verdict is drawn in (the table, the map and the tolerance plot agree).
std::string_view verdictColor(Verdict v);

// A pass/fail map over the two dims with the most distinct values (the first of them across,
// the second down): one square per pair of values, in the colour of the worst verdict of the
// cases there, its tooltip their case numbers. One dim: one row. No dims: a sentence.
std::string verdictMapSvg(const std::vector<const CaseResult*>& cases);

// error ÷ tolerance (CaseResult::toleranceUsed) per case on a log scale, with a line at 1
// (the tolerance itself): near misses sit just under it. Cases that compared nothing (a
// CRASH, a SKIPPED case) are left out and counted under the plot; an exact 0 sits on the
// floor and an infinite ratio (a cell off where the tolerance is 0) on the ceiling.
std::string toleranceSvg(const std::vector<const CaseResult*>& cases);

}  // namespace kc::report
