#include "checker/report/junit.h"

#include <cstdint>
#include <cstdio>

#include "checker/report/format.h"
#include "checker/report/text.h"

namespace kc::report {

namespace {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when it is not valid UTF-8
// (stray or missing continuation bytes, overlong, surrogate, beyond U+10FFFF).
size_t decodeUtf8(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n;
  uint32_t least;
  if (b < 0x80) {
    cp = b;
    return 1;
  } else if ((b & 0xE0) == 0xC0) {
    n = 2, cp = b & 0x1F, least = 0x80;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3, cp = b & 0x0F, least = 0x800;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4, cp = b & 0x07, least = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s >= 0 ? s : 0.0);  // NaN too: time must be a number
  return buf;
}

std::string attr(const char* name, std::string_view value) {
  return std::string(" ") + name + "=\"" + xmlEscape(value, true) + "\"";
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

struct Suite {
  std::string kernel, contract, backend;
  std::vector<const CaseResult*> cases;
};

std::string testcase(const CaseResult& r) {
  std::string name = r.caseId;
  for (size_t i = 0; i < r.dims.size(); ++i)
    name += " " + r.dims[i].first + "=" + std::to_string(r.dims[i].second);
  std::string s = "    <testcase" + attr("classname", r.contract) + attr("name", name) + attr("time", seconds(r.seconds));
  const std::string verdict(verdictName(r.verdict));
  const std::string message = r.reason.empty() ? verdict : r.reason;
  std::string inner, out = r.kernelOutput;
  if (isViolation(r.verdict)) {
    inner = "      <failure" + attr("message", message) + attr("type", verdict) + ">" +
            xmlEscape(join(caseDetails(r)), false) + "</failure>\n";
  } else if (r.verdict != Verdict::Pass) {
    inner = "      <skipped" + attr("message", verdict + ": " + message) + "/>\n";
    if (r.verdict == Verdict::Mistrusted)
      out = "MISTRUSTED: the case proved nothing, so it counts neither as a pass nor as a failure.\n" +
            join(caseDetails(r)) + (out.empty() ? "" : "kernel output:\n" + out);
  }
  if (r.verdict == Verdict::Pass && r.sanitizer) out = join(sanitizerLines(r)) + out;
  if (!out.empty()) inner += "      <system-out>" + xmlEscape(out, false) + "</system-out>\n";
  return s + (inner.empty() ? "/>\n" : ">\n" + inner + "    </testcase>\n");
}

struct Counts {
  size_t tests = 0, failures = 0, skipped = 0;
  double time = 0;
  void add(const CaseResult& r) {
    ++tests;
    failures += isViolation(r.verdict);
    skipped += r.verdict != Verdict::Pass && !isViolation(r.verdict);
    if (r.seconds > 0) time += r.seconds;
  }
  std::string attrs() const {
    return attr("tests", std::to_string(tests)) + attr("failures", std::to_string(failures)) + attr("errors", "0") +
           attr("skipped", std::to_string(skipped)) + attr("time", seconds(time));
  }
};

}  // namespace

std::string xmlEscape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t n = decodeUtf8(text, i, cp);
    if (n == 0 || cp == 0xFFFE || cp == 0xFFFF) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      i += n ? n : 1;
      continue;
    }
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;
      default:
        if (cp < 0x20 || cp == 0x7F) {  // not allowed in XML 1.0 (DEL is, but is no text either)
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(cp));
          out += buf;
        } else {
          out.append(text.substr(i, n));
        }
    }
    i += n;
  }
  return out;
}

std::string junitXml(const std::vector<CaseResult>& results, const FormatContext& context) {
  std::vector<Suite> suites;
  Counts total;
  for (const CaseResult& r : results) {
    Suite* suite = nullptr;
    for (Suite& s : suites)
      if (s.kernel == r.kernel && s.contract == r.contract && s.backend == r.backend) suite = &s;
    if (!suite) suite = &suites.emplace_back(Suite{r.kernel, r.contract, r.backend, {}});
    suite->cases.push_back(&r);
    total.add(r);
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attr("name", "kcontract") +
                    total.attrs() + ">\n";
  for (const Suite& s : suites) {
    Counts counts;
    for (const CaseResult* r : s.cases) counts.add(*r);
    xml += "  <testsuite" + attr("name", s.contract + " on " + s.kernel + " (" + s.backend + ")") + counts.attrs() +
           ">\n    <properties>\n";
    xml += "      <property" + attr("name", "contract") + attr("value", s.contract) + "/>\n";
    xml += "      <property" + attr("name", "kernel") + attr("value", s.kernel) + "/>\n";
    xml += "      <property" + attr("name", "backend") + attr("value", s.backend) + "/>\n";
    if (!context.sandbox.empty()) xml += "      <property" + attr("name", "sandbox") + attr("value", context.sandbox) + "/>\n";
    if (!context.dataFolder.empty())
      xml += "      <property" + attr("name", "data-folder") + attr("value", context.dataFolder) + "/>\n";
    xml += "    </properties>\n";
    for (const CaseResult* r : s.cases) xml += testcase(*r);
    xml += "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

// --format junit (formats.def): one document at the end.
ReportFormat junitFormat() {
  ReportFormat f;
  f.name = "junit";
  f.description = "JUnit XML for CI: a testsuite per kernel, contract and backend, a testcase per case";
  f.document = [](const std::vector<CaseResult>& results, const FormatContext& c) { return junitXml(results, c); };
  return f;
}

}  // namespace kc::report
