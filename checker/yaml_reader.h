#pragma once
// Reading the checker's YAML files (suites, the calibration manifest) with located errors:
// every complaint is a SuiteError "FILE:LINE:COL: message".
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker/suite_error.h"

namespace kc::check {

class YamlReader {
 public:
  explicit YamlReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    YAML::Mark m = at.Mark();
    if (m.is_null()) throw SuiteError(path_ + ": " + message);
    throw SuiteError(path_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + message);
  }

  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a single value");
    return n.as<std::string>();
  }

  std::vector<std::string> list(const YAML::Node& n, const std::string& what) const {
    if (n.IsScalar()) return {n.as<std::string>()};
    if (!n.IsSequence()) fail(n, what + " must be a list");
    std::vector<std::string> out;
    for (const auto& e : n) out.push_back(scalar(e, what + " entry"));
    return out;
  }

  // A key of a map in `where`: a single value, never a map or a list (`{a: 1}: x`, `[a]: x`).
  std::string key(const YAML::Node& k, const std::string& where) const {
    if (!k.IsScalar()) fail(k, "a key in " + where + " must be a single value, not a " + (k.IsMap() ? "map" : k.IsSequence() ? "list" : "null"));
    return k.as<std::string>();
  }

  void onlyKeys(const YAML::Node& map, const std::set<std::string>& keys, const std::string& where) const {
    for (const auto& kv : map) {
      std::string k = key(kv.first, where);
      if (!keys.count(k)) {
        std::string known;
        for (const auto& s : keys) known += (known.empty() ? "" : ", ") + s;
        fail(kv.first, "unknown key '" + k + "' in " + where + " (known: " + known + ")");
      }
    }
  }

  std::pair<int64_t, int64_t> range(const YAML::Node& n, const std::string& dim) const {
    std::string s = scalar(n, "the range of " + dim);
    size_t dots = s.find("..");
    // Decimal digits only: no sign, fraction, exponent or trailing text (`5x`, `1.5`, `1e3`).
    auto integer = [&](const std::string& t, int64_t& v) {
      if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos) return false;
      v = std::stoll(t);
      return true;
    };
    int64_t lo = 0, hi = 0;
    bool ok = dots == std::string::npos ? integer(s, lo) && integer(s, hi)
                                        : integer(s.substr(0, dots), lo) && integer(s.substr(dots + 2), hi);
    if (!ok) fail(n, "the range of " + dim + " must be N or LO..HI (integers); got '" + s + "'");
    if (lo < 1 || hi < lo) fail(n, "the range of " + dim + " must be LO..HI with 1 <= LO <= HI; got '" + s + "'");
    return {lo, hi};
  }

  std::string relative(const std::string& p) const {
    if (p.empty() || std::filesystem::path(p).is_absolute()) return p;
    std::filesystem::path base = std::filesystem::path(path_).parent_path();
    return (base / p).lexically_normal().string();
  }

 private:
  std::string path_;
};

}  // namespace kc::check
