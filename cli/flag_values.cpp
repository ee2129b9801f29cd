#include "cli/flag_values.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace kc::driver {

std::string checkSeconds(const std::string& text, double& out) {
  const std::string why = "'" + text + "' is not a number of seconds (0 < S <= 1000000)";
  // Digits, '.', an exponent: no "nan", "inf", hex floats or blanks, which strtod accepts.
  if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) return why;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v) || !(v > 0) || v > kMaxSeconds) return why;
  out = v;
  return "";
}

std::string checkInteger(const std::string& text, uint64_t lo, uint64_t hi, uint64_t& out) {
  const std::string why = "'" + text + "' is not an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos) return why;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi) return why;
  out = v;
  return "";
}

CLI::Validator secondsValue() {
  return CLI::Validator(
      [](std::string& v) {
        double d = 0;
        return checkSeconds(v, d);
      },
      "SECONDS");
}

CLI::Validator integerValue(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) {
        uint64_t n = 0;
        return checkInteger(v, lo, hi, n);
      },
      "N");
}

}  // namespace kc::driver
