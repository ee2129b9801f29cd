#include "checker/repro.h"

#include <cstdio>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kc::check {

namespace {

std::string encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == ' ' || c == '\'' || c == '"' || c == '%' || c < 0x20) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::optional<std::string> decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int v = 0;
    if (std::sscanf(s.substr(i + 1, 2).c_str(), "%2x", &v) != 1) return std::nullopt;
    out += static_cast<char>(v);
    i += 2;
  }
  return out;
}

bool parseUnsigned(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    uint64_t next = v * 10 + static_cast<uint64_t>(c - '0');
    if (next / 10 != v) return false;
    v = next;
  }
  out = v;
  return true;
}

}  // namespace

std::string inputsDigest(const std::vector<std::vector<uint8_t>>& inputs) {
  uint64_t h = 14695981039346656037ull;
  for (const auto& bytes : inputs) {
    for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string formatRepro(const Repro& r) {
  std::ostringstream s;
  s << "kcontract replay 'file=" << encode(r.file) << " contract=" << encode(r.contract) << " case=" << r.caseNumber
    << " seed-index=" << r.seedIndex << " base-seed=" << r.baseSeed << " impl=" << encode(r.impl) << ":"
    << encode(r.entry) << " backend=" << encode(r.backend) << " inputs=" << r.inputs;
  if (!r.marks.empty()) s << " marks=" << encode(r.marks);
  if (r.timeout > 0) s << " timeout=" << r.timeout;
  for (const auto& d : r.includeDirs) s << " include=" << encode(d);
  if (!r.problemDims.empty()) {
    s << " problem=";
    for (size_t i = 0; i < r.problemDims.size(); ++i) s << (i ? "," : "") << r.problemDims[i].first << ":" << r.problemDims[i].second;
  }
  if (!r.bind.empty()) {
    s << " bind=";
    for (size_t i = 0; i < r.bind.size(); ++i) s << (i ? "," : "") << encode(r.bind[i].first) << ":" << encode(r.bind[i].second);
  }
  if (!r.dir.empty()) s << " dir=" << encode(r.dir);
  s << "'";
  return s.str();
}

Repro resolvedFromDir(Repro r) {
  if (r.dir.empty()) return r;
  auto resolve = [&](std::string& p) {
    if (!p.empty() && p[0] != '/') p = (std::filesystem::path(r.dir) / p).lexically_normal().string();
  };
  resolve(r.file);
  resolve(r.impl);
  for (auto& d : r.includeDirs) resolve(d);
  return r;
}

std::optional<Repro> parseRepro(const std::string& textIn, std::string& error) {
  std::string text = textIn;
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    try {
      auto j = nlohmann::json::parse(text);
      if (!j.contains("repro") || !j["repro"].is_string()) {
        error = "the JSON line has no \"repro\" field (PASS results carry none)";
        return std::nullopt;
      }
      text = j["repro"].get<std::string>();
    } catch (const nlohmann::json::exception& e) {
      error = std::string("not a JSON result line: ") + e.what();
      return std::nullopt;
    }
  }
  // Strip `kcontract replay` and the quotes.
  for (const char* prefix : {"kcontract replay", "replay"}) {
    size_t p = text.find(prefix);
    if (p != std::string::npos && text.find_first_not_of(" \t", 0) == p) {
      text = text.substr(p + std::string(prefix).size());
      break;
    }
  }
  std::string body;
  for (char c : text)
    if (c != '\'') body += c;
  Repro r;
  bool has[8] = {};
  std::istringstream in(body);
  std::string field;
  while (in >> field) {
    size_t eq = field.find('=');
    if (eq == std::string::npos) {
      error = "'" + field + "' is not key=value";
      return std::nullopt;
    }
    std::string key = field.substr(0, eq);
    auto value = decode(field.substr(eq + 1));
    if (!value) {
      error = "bad percent-encoding in '" + field + "'";
      return std::nullopt;
    }
    uint64_t n = 0;
    if (key == "file") { r.file = *value; has[0] = true; }
    else if (key == "contract") { r.contract = *value; has[1] = true; }
    else if (key == "case" && parseUnsigned(*value, n)) { r.caseNumber = n; has[2] = true; }
    else if (key == "seed-index" && parseUnsigned(*value, n)) { r.seedIndex = n; has[3] = true; }
    else if (key == "base-seed" && parseUnsigned(*value, n)) { r.baseSeed = n; has[4] = true; }
    else if (key == "problem") {
      std::istringstream dims(*value);
      std::string item;
      while (std::getline(dims, item, ',')) {
        size_t colon = item.find(':');
        uint64_t v = 0;
        if (colon == std::string::npos || colon == 0 || !parseUnsigned(item.substr(colon + 1), v)) {
          error = "problem= is DIM:N,...; not '" + *value + "'";
          return std::nullopt;
        }
        r.problemDims.emplace_back(item.substr(0, colon), static_cast<int64_t>(v));
      }
    }
    else if (key == "bind") {
      std::istringstream items(field.substr(eq + 1));
      std::string item;
      while (std::getline(items, item, ',')) {
        size_t colon = item.find(':');
        auto input = decode(item.substr(0, colon));
        auto attr = decode(colon == std::string::npos ? "" : item.substr(colon + 1));
        if (colon == std::string::npos || !input || !attr || input->empty() || attr->empty()) {
          error = "bind= is INPUT:ATTR,...; not '" + field.substr(eq + 1) + "'";
          return std::nullopt;
        }
        r.bind.emplace_back(*input, *attr);
      }
    }
    else if (key == "impl") {
      // impl=PATH:ENTRY; the raw field keeps an encoded ':' apart from the separator.
      std::string raw = field.substr(eq + 1);
      size_t colon = raw.rfind(':');
      auto path = decode(raw.substr(0, colon)), entry = decode(colon == std::string::npos ? "" : raw.substr(colon + 1));
      if (colon == std::string::npos || !path || !entry) {
        error = "impl= needs PATH:ENTRY";
        return std::nullopt;
      }
      r.impl = *path;
      r.entry = *entry;
      has[5] = true;
    }
    else if (key == "backend") { r.backend = *value; has[6] = true; }
    else if (key == "inputs") { r.inputs = *value; has[7] = true; }
    else if (key == "marks") {
      if (value->size() != 16 || value->find_first_not_of("0123456789abcdef") != std::string::npos) {
        error = "marks= is 16 hex digits; not '" + *value + "'";
        return std::nullopt;
      }
      r.marks = *value;
    }
    else if (key == "timeout") {
      // As --timeout: a finite number of seconds, 0 < S <= 1000000 (stod takes nan and inf).
      size_t used = 0;
      double t = -1;
      try { t = std::stod(*value, &used); } catch (...) {}
      if (used != value->size() || value->find_first_not_of("0123456789.eE+-") != std::string::npos || !std::isfinite(t) ||
          !(t > 0) || t > 1e6) {
        error = "bad timeout '" + *value + "' (a number of seconds, 0 < S <= 1000000)";
        return std::nullopt;
      }
      r.timeout = t;
    }
    else if (key == "include") r.includeDirs.push_back(*value);
    else if (key == "dir" && !value->empty() && (*value)[0] == '/') r.dir = *value;
    else {
      error = "unknown or malformed field '" + field + "'";
      return std::nullopt;
    }
  }
  const char* names[8] = {"file", "contract", "case", "seed-index", "base-seed", "impl", "backend", "inputs"};
  for (int i = 0; i < 8; ++i)
    if (!has[i]) {
      error = std::string("the reproducer has no ") + names[i] + "= field";
      return std::nullopt;
    }
  return r;
}

}  // namespace kc::check
