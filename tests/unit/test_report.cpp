// The report writers of `kcontract check`: JSON Lines (round trip, truncation), the text
// report, JUnit XML, SARIF.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "checker/report/jsonl.h"
#include "checker/report/junit.h"
#include "checker/report/sarif.h"
#include "checker/report/summary.h"
#include "checker/report/text.h"

using namespace kc::report;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

CaseResult passCase() {
  CaseResult r;
  r.contract = "acme.softmax.rows@1";
  r.contractFile = "contracts/acme/softmax.kcontract";
  r.contractLine = 12;
  r.kernel = "examples/softmax/softmax.c:kc_softmax";
  r.backend = "host";
  r.caseId = "acme.softmax.rows@1#3";
  r.number = 3;
  r.why = "base";
  r.dims = {{"R", 1}, {"H", 32}};
  r.dtypes = {{"T", "f32"}};
  r.values = {{"x", "special(nan: 1%)"}};
  r.baseSeed = 7;
  r.seed = 0x9e3779b97f4a7c15ull;
  r.verdict = Verdict::Pass;
  r.compared = 32;
  r.seconds = 0.012;
  return r;
}

CaseResult failCase() {
  CaseResult r = passCase();
  r.kernel = "examples/softmax/softmax_no_max.c:kc_softmax";
  r.caseId = "acme.softmax.rows@1#20";
  r.number = 20;
  r.why = "boundary";
  r.dims = {{"R", 4}, {"H", 4096}};
  r.values = {{"x", "normal(0, 100)"}};
  r.layouts = {{"x", "row_major"}};
  r.verdict = Verdict::Fail;
  r.reason = "postcondition 'close' violated at 12 of 16384 cells";
  r.violated = {"close"};
  r.signatures = {"overflow"};
  r.worst = {{"y", {0, 17}, 1.03125, 1.0, 0.03125, 262144, 1.2e-06, false},
             {"y", {3, 4095}, -2.5, -2.5078125, 0.0078125, 65536, 1.2e-06, false}};
  r.mismatched = 12;
  r.compared = 16384;
  r.maxAbsError = 0.03125;
  r.maxUlps = 262144;
  r.seconds = 0.134;
  r.repro = "kcontract replay acme.softmax.rows@1#20 --impl examples/softmax/softmax_no_max.c:kc_softmax --seed 7";
  return r;
}

// Doubles equal as values, NaN equal to NaN, and zero keeps its sign.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

void requireSame(const CaseResult& a, const CaseResult& b) {
  CHECK(a.contract == b.contract);
  CHECK(a.contractFile == b.contractFile);
  CHECK(a.contractLine == b.contractLine);
  CHECK(a.kernel == b.kernel);
  CHECK(a.backend == b.backend);
  CHECK(a.caseId == b.caseId);
  CHECK(a.number == b.number);
  CHECK(a.why == b.why);
  CHECK(a.dims == b.dims);
  CHECK(a.dtypes == b.dtypes);
  CHECK(a.values == b.values);
  CHECK(a.layouts == b.layouts);
  CHECK(a.baseSeed == b.baseSeed);
  CHECK(a.seed == b.seed);
  CHECK(a.seedIndex == b.seedIndex);
  CHECK(a.repeats == b.repeats);
  CHECK(a.verdict == b.verdict);
  CHECK(a.reason == b.reason);
  CHECK(a.violated == b.violated);
  CHECK(a.signatures == b.signatures);
  CHECK(a.mismatched == b.mismatched);
  CHECK(a.compared == b.compared);
  CHECK(same(a.maxAbsError, b.maxAbsError));
  CHECK(same(a.maxUlps, b.maxUlps));
  CHECK(same(a.seconds, b.seconds));
  CHECK(a.kernelOutput == b.kernelOutput);
  CHECK(a.repro == b.repro);
  REQUIRE(a.worst.size() == b.worst.size());
  for (size_t i = 0; i < a.worst.size(); ++i) {
    const WorstCell &x = a.worst[i], &y = b.worst[i];
    CHECK(x.tensor == y.tensor);
    CHECK(x.index == y.index);
    CHECK(same(x.got, y.got));
    CHECK(same(x.expected, y.expected));
    CHECK(same(x.absError, y.absError));
    CHECK(same(x.ulps, y.ulps));
    CHECK(same(x.tolerance, y.tolerance));
    CHECK(x.unwritten == y.unwritten);
  }
}

CaseResult roundTrip(const CaseResult& r) {
  const std::string line = caseJson(r);
  CHECK(line.find('\n') == std::string::npos);
  std::string error;
  auto back = parseCaseJson(line, error);
  INFO(error);
  REQUIRE(back);
  return *back;
}

// A small XML 1.0 well-formedness check: nested tags match, attribute values quoted, '<'
// and '&' only as markup or entities, no control characters but tab, newline, CR. It
// collects every element with its attributes (entities decoded) and text.
struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;
};

bool decodeEntity(const std::string& s, size_t& i, std::string& out) {
  const size_t end = s.find(';', i);
  if (end == std::string::npos) return false;
  const std::string e = s.substr(i + 1, end - i - 1);
  static const std::map<std::string, std::string> named = {
      {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
  if (named.count(e)) {
    out += named.at(e);
  } else if (e == "#9" || e == "#10" || e == "#13") {
    out += static_cast<char>(std::stoi(e.substr(1)));
  } else {
    return false;  // the writer never needs any other reference
  }
  i = end + 1;
  return true;
}

bool wellFormed(const std::string& xml, std::vector<Element>& elements) {
  size_t i = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  std::vector<size_t> open;  // indices into elements
  bool rootSeen = false;
  while (i < xml.size()) {
    const unsigned char c = xml[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    if (c == '&') {
      std::string decoded;
      if (!decodeEntity(xml, i, decoded)) return false;
      if (!open.empty()) elements[open.back()].text += decoded;
      continue;
    }
    if (c != '<') {
      if (c == '>') return false;  // legal, but this writer escapes it
      if (open.empty() && !std::isspace(c)) return false;
      if (!open.empty()) elements[open.back()].text += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t close = xml.find('>', i);
    if (close == std::string::npos) return false;
    if (xml[i + 1] == '/') {
      const std::string name = xml.substr(i + 2, close - i - 2);
      if (open.empty() || elements[open.back()].name != name) return false;
      open.pop_back();
      i = close + 1;
      continue;
    }
    if (open.empty() && rootSeen) return false;
    rootSeen = true;
    Element e;
    size_t j = i + 1;
    while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-')) e.name += xml[j++];
    if (e.name.empty()) return false;
    while (true) {
      while (xml[j] == ' ') ++j;
      if (xml[j] == '>' || xml.compare(j, 2, "/>") == 0) break;
      std::string key;
      while (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-') key += xml[j++];
      if (key.empty() || xml.compare(j, 2, "=\"") != 0 || e.attrs.count(key)) return false;
      j += 2;
      std::string value;
      while (j < xml.size() && xml[j] != '"') {
        const unsigned char v = xml[j];
        if (v == '<' || (v < 0x20)) return false;  // raw tab/newline in a value would be normalized
        if (v == '&') {
          if (!decodeEntity(xml, j, value)) return false;
        } else {
          value += xml[j++];
        }
      }
      if (j >= xml.size()) return false;
      ++j;
      e.attrs[key] = value;
    }
    const bool empty = xml[j] == '/';
    elements.push_back(e);
    if (!empty) open.push_back(elements.size() - 1);
    i = j + (empty ? 2 : 1);
  }
  return open.empty() && rootSeen;
}

std::vector<CaseResult> mixedSet() {
  CaseResult fail2 = failCase();
  fail2.caseId = "acme.softmax.rows@1#21";
  fail2.signatures.clear();
  CaseResult pass2 = passCase();
  pass2.kernel = fail2.kernel;
  pass2.caseId = "acme.softmax.rows@1#4";
  CaseResult other = passCase();
  other.kernel = fail2.kernel;
  other.contract = "acme.softmax.sum_to_one@1";
  other.contractLine = 30;
  other.caseId = "acme.softmax.sum_to_one@1#1";
  CaseResult mistrusted = other;
  mistrusted.caseId = "acme.softmax.sum_to_one@1#2";
  mistrusted.verdict = Verdict::Mistrusted;
  mistrusted.reason = "every output cell is NaN: the check proved nothing";
  mistrusted.repro = "kcontract replay acme.softmax.sum_to_one@1#2";
  CaseResult skipped = passCase();
  skipped.backend = "cuda";
  skipped.caseId = "acme.softmax.rows@1#1";
  skipped.verdict = Verdict::Skipped;
  skipped.reason = "backend cuda is not available";
  skipped.contractFile = "";
  skipped.contractLine = 0;
  return {pass2, failCase(), fail2, other, mistrusted, skipped};
}

}  // namespace

TEST_CASE("jsonl: a FAIL with NaN and infinities reads back exactly", "[report]") {
  CaseResult r = failCase();
  r.worst[0].got = kNaN;
  r.worst[0].absError = kInf;
  r.worst[0].ulps = kInf;
  r.worst[1].expected = -kInf;
  r.worst[1].tolerance = kNaN;
  r.worst[1].unwritten = true;
  r.worst.push_back({"z", {}, -0.0, 1e-310, 5e-324, 0.5, 0.1, false});  // signed zero, subnormals, 0-d index
  r.maxAbsError = kInf;
  r.maxUlps = kNaN;
  r.baseSeed = std::numeric_limits<uint64_t>::max();
  r.seedIndex = 2;
  r.repeats = 3;
  r.contractLine = 0;
  r.kernelOutput = "line 1\n\"quoted\"\ttab \xc3\xa9\n\x01";
  const CaseResult back = roundTrip(r);
  requireSame(r, back);

  const std::string line = caseJson(r);
  CHECK(line.find("\"max_abs_error\":\"inf\"") != std::string::npos);
  CHECK(line.find("\"expected\":\"-inf\"") != std::string::npos);
  CHECK(line.find("\"max_ulps\":\"nan\"") != std::string::npos);
  CHECK(line.find("NaN") == std::string::npos);
  CHECK(line.find("null") == std::string::npos);  // nlohmann's default for a non-finite double
}

TEST_CASE("jsonl: keys come in the documented order", "[report]") {
  const auto j = nlohmann::ordered_json::parse(caseJson(failCase()));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  const std::vector<std::string> expected = {
      "case",     "number",     "contract", "file",     "line",       "kernel",        "backend",
      "verdict",  "reason",     "signatures", "violated", "why",      "dims",          "dtypes",
      "values",   "layouts",    "base_seed", "seed",    "seed_index", "repeats",       "compared",
      "mismatched", "max_abs_error", "max_ulps", "tolerance_used", "worst", "seconds",  "repro"};
  CHECK(keys == expected);
  std::vector<std::string> cellKeys;
  for (auto it = j["worst"][0].begin(); it != j["worst"][0].end(); ++it) cellKeys.push_back(it.key());
  CHECK(cellKeys ==
        std::vector<std::string>{"tensor", "index", "got", "expected", "abs_error", "ulps", "tolerance", "unwritten"});
  CHECK(j["dims"].dump() == R"({"R":4,"H":4096})");
}

TEST_CASE("jsonl: a PASS with no worst cells, no output and no repro reads back", "[report]") {
  const CaseResult r = passCase();
  const std::string line = caseJson(r);
  CHECK(line.find("kernel_output") == std::string::npos);
  CHECK(line.find("repro") == std::string::npos);
  CHECK(line.find("\"worst\":[]") != std::string::npos);
  requireSame(r, roundTrip(r));
}

TEST_CASE("jsonl: a truncated or damaged line is an error, not a crash", "[report]") {
  const std::string line = caseJson(failCase());
  std::string error;
  for (size_t n = 0; n < line.size(); ++n) {
    error.clear();
    INFO("prefix of " << n << " bytes");
    CHECK_FALSE(parseCaseJson(line.substr(0, n), error));
    CHECK_FALSE(error.empty());
  }
  CHECK(parseCaseJson(line + "\n", error));  // a complete line with its newline is fine

  auto damaged = [&](const std::string& from, const std::string& to) {
    std::string s = line;
    const size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    error.clear();
    const bool ok = parseCaseJson(s, error).has_value();
    return ok ? std::string("parsed") : error;
  };
  CHECK(damaged("\"verdict\":\"FAIL\"", "\"verdict\":\"MAYBE\"") == "unknown verdict 'MAYBE'");
  CHECK(damaged("\"number\":20,", "") == "missing 'number'");
  CHECK(damaged("\"line\":12", "\"line\":\"12\"") == "'line' is not an integer");
  CHECK(damaged("\"repeats\":1", "\"repeats\":-1e400") != "parsed");
  CHECK(damaged("\"base_seed\":7", "\"base_seed\":-7") == "'base_seed' is out of range");
  CHECK(damaged("\"tolerance\":1.2e-06", "\"tolerance\":\"big\"") == "'worst[0].tolerance' is not a number");
  CHECK_FALSE(parseCaseJson("[1, 2]", error));
}

TEST_CASE("jsonl: the resume key is case, kernel and backend", "[report]") {
  CHECK(resumeKey(failCase()) == "acme.softmax.rows@1#20\texamples/softmax/softmax_no_max.c:kc_softmax\thost");
  CaseResult cuda = failCase();
  cuda.backend = "cuda";
  CHECK(resumeKey(cuda) != resumeKey(failCase()));
}

TEST_CASE("text: a PASS is one line", "[report]") {
  CHECK(caseLine(passCase(), false) ==
        "PASS       acme.softmax.rows@1#3   R=1 H=32 T=f32 x=special(nan: 1%)   0.01 s");
  CHECK(caseLine(passCase(), true) ==
        "\x1b[32mPASS\x1b[0m       acme.softmax.rows@1#3   R=1 H=32 T=f32 x=special(nan: 1%)   0.01 s");
}

TEST_CASE("text: a FAIL carries reason, signature, worst cells, repro", "[report]") {
  CHECK(caseLine(failCase(), false) ==
        "FAIL       acme.softmax.rows@1#20   R=4 H=4096 T=f32 x=normal(0, 100) x:row_major   0.13 s\n"
        "    postcondition 'close' violated at 12 of 16384 cells\n"
        "    violated: close\n"
        "    matches: overflow\n"
        "    Mismatched elements: 12 / 16384 (0.1%)\n"
        "    Greatest absolute difference: 3.1e-02 at index (0, 17) (up to 1.2e-06 allowed)\n"
        "    Greatest ulp difference: 262144 at index (0, 17)\n"
        "    y at index (0, 17): got 1.03125, expected 1, difference 3.1e-02 (up to 1.2e-06 allowed), 262144 ulps\n"
        "    y at index (3, 4095): got -2.5, expected -2.5078125, difference 7.8e-03 (up to 1.2e-06 allowed), "
        "65536 ulps\n"
        "    repro: kcontract replay acme.softmax.rows@1#20 --impl examples/softmax/softmax_no_max.c:kc_softmax "
        "--seed 7");
  CaseResult r = failCase();
  r.signatures.clear();
  CHECK(caseLine(r, false).find("\n    matches: unclassified\n") != std::string::npos);
  CHECK(caseLine(r, true).rfind("\x1b[31mFAIL\x1b[0m", 0) == 0);
}

TEST_CASE("text: at most 5 worst cells, index tuples like torch, colours by verdict", "[report]") {
  CaseResult r = failCase();
  r.worst.clear();
  for (int i = 0; i < 8; ++i) r.worst.push_back({"y", {i}, float(i) + 0.1f, double(i), 0.1, 3, kNaN, i == 0});
  r.maxAbsError = 0.5;  // not among the cells shown: no index to point at
  const std::string s = caseLine(r, false);
  CHECK(s.find("y at index (4,)") != std::string::npos);
  CHECK(s.find("y at index (5,)") == std::string::npos);
  CHECK(s.find("... and 3 more of the worst cells") != std::string::npos);
  CHECK(s.find("Greatest absolute difference: 5.0e-01\n") != std::string::npos);
  CHECK(s.find("got 0.1, expected 0, difference 1.0e-01, 3 ulps, never written") != std::string::npos);
  CHECK(formatIndex({}) == "()");

  CaseResult m = passCase();
  m.verdict = Verdict::Mistrusted;
  CHECK(caseLine(m, true).rfind("\x1b[33mMISTRUSTED\x1b[0m acme", 0) == 0);
  m.verdict = Verdict::Crash;
  m.kernelOutput = "a\nb\nc\nd\ne\nSegmentation fault\x1b[0m\r\n";
  const std::string crash = caseLine(m, true);
  CHECK(crash.rfind("\x1b[31mCRASH\x1b[0m", 0) == 0);
  CHECK(crash.find("| a\n") == std::string::npos);  // only the last 5 lines
  CHECK(crash.find("\n    | Segmentation fault?[0m") != std::string::npos);
  CHECK(crash.find("signature") == std::string::npos);  // "unclassified" is for FAIL only
}

TEST_CASE("text: worst verdict ordering", "[report]") {
  CHECK(worseVerdict(Verdict::Pass, Verdict::Skipped) == Verdict::Skipped);
  CHECK(worseVerdict(Verdict::Unknown, Verdict::Mistrusted) == Verdict::Mistrusted);
  CHECK(worseVerdict(Verdict::Mistrusted, Verdict::Timeout) == Verdict::Timeout);
  CHECK(worseVerdict(Verdict::Error, Verdict::Fail) == Verdict::Fail);
  CHECK(worseVerdict(Verdict::Pass, Verdict::Pass) == Verdict::Pass);
}

TEST_CASE("text: the summary table has a row per kernel, contract, backend", "[report]") {
  // Text columns left-aligned, counts right-aligned, two spaces between columns; the
  // verdict columns are those some case has; zero counts are blank.
  const std::vector<std::string> expected = {
      "kernel                                        contract                   backend  PASS  FAIL  MISTRUSTED  SKIPPED  verdict  signatures",
      "examples/softmax/softmax_no_max.c:kc_softmax  acme.softmax.rows@1        host        1     2                       FAIL     overflow, unclassified",
      "examples/softmax/softmax_no_max.c:kc_softmax  acme.softmax.sum_to_one@1  host        1                 1           PASS",
      "examples/softmax/softmax.c:kc_softmax         acme.softmax.rows@1        cuda                                   1  SKIPPED",
      "--------------------------------------------------------------------------------------------------------------------------------------------------",
      "total                                         6 cases                                2     2           1        1  FAIL",
      "mistrusted: examples/softmax/softmax_no_max.c:kc_softmax  acme.softmax.sum_to_one@1  host: 1 case: every output cell is NaN: the check proved nothing",
      "skipped: examples/softmax/softmax.c:kc_softmax  acme.softmax.rows@1  cuda: 1 case: backend cuda is not available",
  };
  const std::string table = summaryTable(mixedSet(), false);
  REQUIRE(!table.empty());
  CHECK(table.back() == '\n');
  std::vector<std::string> lines;
  for (size_t start = 0, end; start < table.size(); start = end + 1) {
    end = table.find('\n', start);
    lines.push_back(table.substr(start, end - start));
  }
  REQUIRE(lines.size() == expected.size());
  for (size_t i = 0; i < lines.size(); ++i) CHECK(lines[i] == expected[i]);
  const std::string colored = summaryTable(mixedSet(), true);
  CHECK(colored.find("\x1b[31mFAIL\x1b[0m     overflow") != std::string::npos);
  CHECK(colored.find("\x1b[33mSKIPPED\x1b[0m\n") != std::string::npos);
  CHECK(summaryTable({}, false) == "no cases\n");
}

TEST_CASE("text: a kernel that passed every case it ran is PASS, its skips listed with their reasons", "[report]") {
  CaseResult ran = passCase();
  CaseResult big = passCase();
  big.caseId = "acme.softmax.rows@1#9";
  big.verdict = Verdict::Skipped;
  big.reason = "the case needs 24.0 GiB of host memory; --max-memory allows 4.0 GiB";
  CaseResult big2 = big;
  big2.caseId = "acme.softmax.rows@1#10";
  const std::string table = summaryTable({ran, big, big2}, false);
  CHECK(table.find("  PASS\n") != std::string::npos);
  CHECK(table.find("SKIPPED  verdict") != std::string::npos);  // the column still counts them
  CHECK(table.find("skipped: " + ran.kernel + "  " + ran.contract + "  host: 2 cases: " + big.reason + "\n") !=
        std::string::npos);
  // Nothing ran: SKIPPED, never PASS.
  const std::string none = summaryTable({big}, false);
  CHECK(none.find("  SKIPPED\n") != std::string::npos);
  CHECK(none.find("  PASS") == std::string::npos);
}

TEST_CASE("text: a MISTRUSTED case beside passes leaves the row PASS, listed; alone it is MISTRUSTED", "[report]") {
  CaseResult ran = passCase();
  CaseResult weak = passCase();
  weak.caseId = "acme.softmax.rows@1#9";
  weak.verdict = Verdict::Mistrusted;
  weak.reason = "the postconditions of this case accept an output of zeros and an output far from the oracle alike: it proves nothing";
  const std::string table = summaryTable({ran, weak}, false);
  CHECK(table.find("  PASS\n") != std::string::npos);
  CHECK(table.find("MISTRUSTED  verdict") != std::string::npos);  // the column still counts it
  CHECK(table.find("mistrusted: " + ran.kernel + "  " + ran.contract + "  host: 1 case: " + weak.reason + "\n") !=
        std::string::npos);
  CHECK(jobOutcome({ran, weak}, false) == "pass");
  // Nothing but a case that proves nothing: MISTRUSTED, never PASS.
  const std::string alone = summaryTable({weak}, false);
  CHECK(alone.find("  MISTRUSTED\n") != std::string::npos);
  CHECK(alone.find("  PASS") == std::string::npos);
  CHECK(jobOutcome({weak}, false) == "mistrusted");
  // A failure beside them is still FAIL.
  CaseResult bad = passCase();
  bad.caseId = "acme.softmax.rows@1#10";
  bad.verdict = Verdict::Fail;
  CHECK(summaryTable({ran, weak, bad}, false).find("  FAIL") != std::string::npos);
}

TEST_CASE("text: progress bar", "[report]") {
  CHECK(progressText(37, 86, "acme.softmax.rows@1#37", 10) == "[####......] 37/86 cases  acme.softmax.rows@1#37");
  CHECK(progressText(0, 0, "", 4) == "[....] 0/0 cases");
  CHECK(progressText(9, 8, "x", 4) == "[####] 8/8 cases  x");

  auto written = [](bool enabled) {
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    {
      ProgressBar bar(4, enabled, f);
      bar.update(1, "c#1");
      bar.clear();
      bar.clear();  // a second clear writes nothing
      bar.update(2, "c#2");
    }  // the destructor erases the bar
    std::rewind(f);
    std::string s;
    for (int ch; (ch = std::fgetc(f)) != EOF;) s += static_cast<char>(ch);
    std::fclose(f);
    return s;
  };
  CHECK(written(false).empty());
  CHECK(written(true) ==
        "\r[#####...............] 1/4 cases  c#1\x1b[K\r\x1b[K\r[##########..........] 2/4 cases  c#2\x1b[K\r\x1b[K");
}

TEST_CASE("junit: well-formed, counted, escaped", "[report]") {
  auto results = mixedSet();
  results[1].reason = "bad <&\"> 'value'";
  results[1].kernelOutput = "ctl \x01\x1b[0m bad utf8 \xff\xfe end\r\n";
  results.push_back(failCase());
  results.back().verdict = Verdict::Crash;
  results.back().caseId = "acme.softmax.rows@1#22";
  results.back().reason = "line1\nline2";

  const std::string xml = junitXml(results);
  std::vector<Element> el;
  INFO(xml);
  REQUIRE(wellFormed(xml, el));
  REQUIRE(el[0].name == "testsuites");
  CHECK(el[0].attrs["tests"] == "7");
  CHECK(el[0].attrs["failures"] == "3");
  CHECK(el[0].attrs["skipped"] == "2");
  CHECK(el[0].attrs["errors"] == "0");

  std::vector<Element> suites, cases, failures, skipped;
  for (const Element& e : el) {
    if (e.name == "testsuite") suites.push_back(e);
    if (e.name == "testcase") cases.push_back(e);
    if (e.name == "failure") failures.push_back(e);
    if (e.name == "skipped") skipped.push_back(e);
  }
  REQUIRE(suites.size() == 3);
  CHECK(suites[0].attrs["tests"] == "4");
  CHECK(suites[0].attrs["failures"] == "3");
  CHECK(suites[0].attrs["skipped"] == "0");
  CHECK(suites[0].attrs["time"] == "0.414");  // 0.012 + 0.134 * 3
  CHECK(suites[1].attrs["tests"] == "2");
  CHECK(suites[1].attrs["skipped"] == "1");
  CHECK(suites[2].attrs["skipped"] == "1");
  REQUIRE(cases.size() == 7);
  CHECK(cases[1].attrs["classname"] == "acme.softmax.rows@1");
  CHECK(cases[1].attrs["name"] == "acme.softmax.rows@1#20 R=4 H=4096");

  REQUIRE(failures.size() == 3);
  CHECK(failures[0].attrs["message"] == "bad <&\"> 'value'");
  CHECK(failures[0].attrs["type"] == "FAIL");
  CHECK(failures[0].text.find("matches: overflow") != std::string::npos);
  CHECK(failures[0].text.find("Greatest absolute difference: 3.1e-02 at index (0, 17)") != std::string::npos);
  CHECK(failures[0].text.find("repro: kcontract replay") != std::string::npos);
  CHECK(failures[1].text.find("matches: unclassified") != std::string::npos);
  CHECK(failures[2].attrs["type"] == "CRASH");
  CHECK(failures[2].attrs["message"] == "line1\nline2");  // a character reference keeps the newline

  REQUIRE(skipped.size() == 2);
  CHECK(skipped[0].attrs["message"] == "MISTRUSTED: every output cell is NaN: the check proved nothing");
  CHECK(skipped[1].attrs["message"] == "SKIPPED: backend cuda is not available");
  CHECK(xml.find("<system-out>MISTRUSTED: the case proved nothing") != std::string::npos);
}

TEST_CASE("junit: XML escaping of control characters and bad UTF-8", "[report]") {
  CHECK(xmlEscape("a<b>&\"'", false) == "a&lt;b&gt;&amp;&quot;&apos;");
  CHECK(xmlEscape("t\tn\nr\r", false) == "t\tn\nr&#13;");
  CHECK(xmlEscape("t\tn\n", true) == "t&#9;n&#10;");
  CHECK(xmlEscape(std::string("\x00\x1b\x7f", 3), false) == "\\x00\\x1B\\x7F");
  CHECK(xmlEscape("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", false) == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(xmlEscape("\xff|\xc3|\xc0\xaf|\xed\xa0\x80|\xef\xbf\xbe", false) ==
        "\xef\xbf\xbd|\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd");
}

TEST_CASE("sarif: one result per case that did not pass, levels by verdict, a rule per contract", "[report]") {
  auto results = mixedSet();
  results.push_back(failCase());
  results.back().verdict = Verdict::Timeout;
  results.back().kernelOutput = "\xff";  // not UTF-8: replaced, not thrown
  const auto sarif = nlohmann::json::parse(sarifJson(results, "0.1.0"));
  CHECK(sarif["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
  CHECK(sarif["version"] == "2.1.0");
  const auto& run = sarif["runs"][0];
  const auto& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "kcontract");
  CHECK(driver["version"] == "0.1.0");
  CHECK(driver["informationUri"] == "https://github.com/kcontract/kcontract");
  REQUIRE(driver["rules"].size() == 2);
  CHECK(driver["rules"][0]["id"] == "acme.softmax.rows@1");
  CHECK(driver["rules"][1]["id"] == "acme.softmax.sum_to_one@1");
  CHECK(driver["rules"][0]["shortDescription"]["text"].is_string());

  const auto& res = run["results"];
  REQUIRE(res.size() == 5);  // 2 FAIL, MISTRUSTED, SKIPPED, TIMEOUT
  std::vector<std::string> levels;
  for (const auto& r : res) levels.push_back(r["level"]);
  CHECK(levels == std::vector<std::string>{"error", "error", "warning", "note", "error"});
  CHECK(res[0]["ruleId"] == "acme.softmax.rows@1");
  CHECK(res[2]["ruleId"] == "acme.softmax.sum_to_one@1");
  CHECK(res[2]["ruleIndex"] == 1);
  CHECK(res[0]["message"]["text"] ==
        "FAIL acme.softmax.rows@1#20: postcondition 'close' violated at 12 of 16384 cells (signature: overflow)");
  const auto& loc = res[0]["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "contracts/acme/softmax.kcontract");
  CHECK(loc["region"]["startLine"] == 12);
  CHECK_FALSE(res[3].contains("locations"));  // the skipped case has no file
  CHECK(res[1]["properties"]["signatures"] == nlohmann::json::array({"unclassified"}));
  CHECK(res[0]["properties"]["case"] == "acme.softmax.rows@1#20");
  CHECK(res[0]["properties"]["kernel"] == "examples/softmax/softmax_no_max.c:kc_softmax");
  CHECK(res[0]["properties"]["backend"] == "host");
  CHECK(res[0]["properties"]["verdict"] == "FAIL");
  CHECK(res[4]["properties"]["verdict"] == "TIMEOUT");
  CHECK(res[0]["properties"]["repro"] == failCase().repro);

  CaseResult noLine = failCase();
  noLine.contractLine = 0;
  const auto one = nlohmann::json::parse(sarifJson({noLine, passCase()}, "x"));
  CHECK(one["runs"][0]["results"].size() == 1);
  CHECK_FALSE(one["runs"][0]["results"][0]["locations"][0]["physicalLocation"].contains("region"));
}

TEST_CASE("sarif: locations relative to the source root or the data folder, else absolute", "[report]") {
  CaseResult mine = failCase(), stdlibCase = failCase(), elsewhere = failCase();
  mine.contractFile = "contracts/acme/softmax.kcontract";  // relative to where the check ran
  stdlibCase.contractFile = "/opt/kc share/stdlib/ops/softmax.kcontract";
  elsewhere.contractFile = "/srv/other/x.kcontract";
  const auto sarif =
      nlohmann::json::parse(sarifJson({mine, stdlibCase, elsewhere}, "0.1.0", "", "/opt/kc share", "/home/u/repo"));
  const auto& run = sarif["runs"][0];
  CHECK(run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file:///home/u/repo/");
  CHECK(run["originalUriBaseIds"]["KCDATA"]["uri"] == "file:///opt/kc%20share/");
  auto where = [&](int i) { return run["results"][i]["locations"][0]["physicalLocation"]["artifactLocation"]; };
  CHECK(where(0) == nlohmann::json({{"uri", "contracts/acme/softmax.kcontract"}, {"uriBaseId", "SRCROOT"}}));
  CHECK(where(1) == nlohmann::json({{"uri", "stdlib/ops/softmax.kcontract"}, {"uriBaseId", "KCDATA"}}));
  CHECK(where(2) == nlohmann::json({{"uri", "file:///srv/other/x.kcontract"}}));
  CaseResult up = failCase();
  up.contractFile = "../../stdlib/ops/softmax.kcontract";  // outside the source root: absolute
  const auto two = nlohmann::json::parse(sarifJson({up}, "0.1.0", "", "", "/home/u/repo/tests/e2e"));
  CHECK(two["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file:///home/u/repo/stdlib/ops/softmax.kcontract");
}
