#pragma once
// JUnit XML for CI: a <testsuite> per (kernel, contract, backend), a <testcase> per case.
#include <string>
#include <string_view>
#include <vector>

#include "checker/report/format.h"
#include "checker/report/result.h"

namespace kc::report {

// FAIL, CRASH, TIMEOUT, ERROR: <failure type="VERDICT">; SKIPPED, UNKNOWN: <skipped>;
// MISTRUSTED: <skipped message="MISTRUSTED: ..."> and a <system-out> note (it proved
// nothing, so it neither passes nor fails the build). Counts on every suite and in total.
// context.sandbox, when known, is a property of every test suite.
std::string junitXml(const std::vector<CaseResult>& results, const FormatContext& context = {});

// Text made safe for XML 1.0: & < > " ' as entities; bytes that are not UTF-8, and code
// points XML cannot hold, as U+FFFD; other control characters as the text "\xHH". In an
// attribute, tab, newline and carriage return become character references (a parser would
// turn them into spaces); in content, carriage return does.
std::string xmlEscape(std::string_view text, bool attribute);

}  // namespace kc::report
