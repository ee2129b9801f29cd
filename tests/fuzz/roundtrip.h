#pragma once
// The property the fuzzer checks, shared with the regression test that replays every
// crasher in CI: text that parses formats to text that parses to the same AST and
// comments, and formatting that text again changes nothing.
#include <string>

namespace kc::fuzz {

// Returns "" when the property holds (or the input does not parse), else what broke.
std::string roundTripFailure(const std::string& text);

}  // namespace kc::fuzz
