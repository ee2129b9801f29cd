#include "cli/flag_values.h"

#include <CLI/CLI.hpp>
#include <algorithm>
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

// --dims "R=1..64,H=32": each dim's range (N is N..N). "" when it parses, else what is wrong.
std::string parseDims(const std::string& text, std::map<std::string, std::pair<int64_t, int64_t>>& out) {
  auto number = [](const std::string& s, int64_t& v) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) return false;
    v = std::stoll(s);
    return true;
  };
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(at, end - at);
    size_t eq = item.find('=');
    std::string name = eq == std::string::npos ? "" : item.substr(0, eq), range = eq == std::string::npos ? "" : item.substr(eq + 1);
    size_t dots = range.find("..");
    int64_t lo = 0, hi = 0;
    bool ok = !name.empty() && (dots == std::string::npos ? number(range, lo) && number(range, hi)
                                                          : number(range.substr(0, dots), lo) && number(range.substr(dots + 2), hi));
    if (!ok || lo > hi) return "--dims is NAME=N or NAME=LO..HI, comma-separated (R=1..64,H=32); not '" + item + "'";
    out[name] = {lo, hi};
    at = end + 1;
  }
  return "";
}

// --layouts "contiguous,padded": layout kinds. "" when they are all known, else what is wrong.
std::string parseLayouts(const std::string& text, std::vector<std::string>& out) {
  static const std::vector<std::string> known = {"contiguous", "transposed", "padded", "offset", "step"};
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::string kind = text.substr(at, end - at);
    if (std::find(known.begin(), known.end(), kind) == known.end())
      return "--layouts takes layout kinds (contiguous, transposed, padded, offset, step), comma-separated; not '" + kind + "'";
    out.push_back(kind);
    at = end + 1;
  }
  return "";
}

// "4G", "512M", "1000000": bytes.
bool parseBytes(const std::string& s, uint64_t& out) {
  if (s.empty()) return false;
  size_t end = 0;
  double v = 0;
  try {
    v = std::stod(s, &end);
  } catch (...) {
    return false;
  }
  std::string unit = s.substr(end);
  double scale = unit.empty() || unit == "B" ? 1 : unit == "K" || unit == "KiB" ? 1024.0
               : unit == "M" || unit == "MiB" ? 1048576.0 : unit == "G" || unit == "GiB" ? 1073741824.0 : -1;
  // A number of digits and '.': no "nan", "inf", sign, exponent or hex; a whole byte or more,
  // and at most 1 PiB (std::stod takes all of those, and NaN passed `v <= 0`).
  std::string number = s.substr(0, end);
  if (number.find_first_not_of("0123456789.") != std::string::npos) return false;
  double bytes = v * scale;
  if (scale < 0 || !std::isfinite(bytes) || !(bytes >= 1) || bytes > 1125899906842624.0) return false;
  out = static_cast<uint64_t>(bytes);
  return true;
}

bool parseShard(const std::string& s, size_t& index, size_t& count) {
  size_t slash = s.find('/');
  if (slash == std::string::npos) return false;
  // Decimal digits on both sides: std::stoul took "1.5/2" as 1/2 and "-1/2" as a huge I.
  uint64_t i = 0, n = 0;
  if (!checkInteger(s.substr(0, slash), 0, kMaxShards - 1, i).empty() || !checkInteger(s.substr(slash + 1), 1, kMaxShards, n).empty())
    return false;
  index = i;
  count = n;
  return index < count;
}

}  // namespace kc::driver
