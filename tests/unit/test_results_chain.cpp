// The results file's integrity chain (checker/report/chain.h): what the writer seals, and
// what --resume accepts, cuts off or refuses.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "checker/report/chain.h"
#include "checker/report/format.h"
#include "checker/report/jsonl.h"

using namespace kc::report;
namespace fs = std::filesystem;

namespace {

CaseResult result(const std::string& id, Verdict v) {
  CaseResult r;
  r.contract = "acme.relu@1";
  r.kernel = "relu.c:kc_relu";
  r.backend = "host";
  r.caseId = id;
  r.verdict = v;
  return r;
}

// A file of `n` results from one run, as `check --format jsonl --out` writes it.
std::string file(int n, ResultsChain& chain) {
  std::string text;
  for (int i = 0; i < n; ++i) text += chain.seal(caseJson(result("acme.relu@1#" + std::to_string(i), Verdict::Pass))) + "\n";
  return text;
}

std::string line(const std::string& text, size_t k) {  // 0-based, without its newline
  std::istringstream in(text);
  std::string l;
  for (size_t i = 0; i <= k; ++i) std::getline(in, l);
  return l;
}

}  // namespace

TEST_CASE("results chain: SHA-256 and the run nonce", "[report][chain]") {
  CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string a = newRunNonce(), b = newRunNonce();
  CHECK(a.size() == 32);
  CHECK(a != b);
}

TEST_CASE("results chain: a run's records verify, and the first carries the run", "[report][chain]") {
  ResultsChain chain("", "00112233445566778899aabbccddeeff");
  std::string text = file(3, chain);
  CHECK(line(text, 0).find(",\"run\":\"00112233445566778899aabbccddeeff\",\"chain\":\"") != std::string::npos);
  CHECK(line(text, 1).find("\"run\"") == std::string::npos);
  VerifiedResults v = verifyResults(text);
  CHECK(v.tampered.empty());
  CHECK(v.cut.empty());
  REQUIRE(v.records.size() == 3);
  CHECK(v.keptBytes == text.size());
  CHECK(v.last == chain.last());
  std::string error;
  auto back = parseCaseJson(v.records[2], error);  // the chain's keys do not disturb the reader
  REQUIRE(back);
  CHECK(back->caseId == "acme.relu@1#2");
  // A resumed run continues the chain with a run of its own.
  ResultsChain more(v.last);
  text += file(2, more);
  VerifiedResults w = verifyResults(text);
  CHECK(w.tampered.empty());
  CHECK(w.records.size() == 5);
  CHECK(line(text, 3).find("\"run\":\"" + more.nonce() + "\"") != std::string::npos);
}

TEST_CASE("results chain: an edited, inserted, removed or moved line is tampering, named by line", "[report][chain]") {
  ResultsChain chain;
  const std::string text = file(4, chain);
  const std::string why = "its \"chain\" digest does not match its content and the line before it (edited, inserted, "
                          "removed or moved after it was written)";
  SECTION("a verdict edited in the middle") {
    std::string t = text;
    size_t at = t.find("\"verdict\":\"PASS\"", t.find('\n') + 1);
    t.replace(at, 16, "\"verdict\":\"FAIL\"");
    VerifiedResults v = verifyResults(t);
    CHECK(v.tampered == "2: " + why);
    CHECK(v.records.size() == 1);
  }
  SECTION("a forged line appended by someone who does not know the chain") {
    std::string forged = caseJson(result("acme.relu@1#9", Verdict::Pass));
    forged.pop_back();
    forged += ",\"chain\":\"" + std::string(64, '0') + "\"}";
    VerifiedResults v = verifyResults(text + forged + "\n" + line(text, 3) + "\n");
    CHECK(v.tampered == "5: " + why);
  }
  SECTION("a line removed, or two swapped") {
    CHECK(verifyResults(line(text, 0) + "\n" + line(text, 2) + "\n" + line(text, 3) + "\n").tampered == "2: " + why);
    CHECK(verifyResults(line(text, 1) + "\n" + line(text, 0) + "\n").tampered ==
          "1: the first record starts no run (no \"run\" nonce): not a results file kcontract wrote");
  }
  SECTION("the whole last line edited is tampering too (a kill cannot write a whole line)") {
    std::string t = text;
    size_t at = t.rfind("\"verdict\":\"PASS\"");
    t.replace(at, 16, "\"verdict\":\"FAIL\"");
    CHECK(verifyResults(t).tampered == "4: " + why);
  }
  SECTION("unsealed lines in the middle, blank lines, files kcontract did not write") {
    CHECK(verifyResults(line(text, 0) + "\n{\"case\":\"x\"}\n" + line(text, 1) + "\n").tampered ==
          "2: the line has no \"chain\" digest at its end");
    CHECK(verifyResults(line(text, 0) + "\n\n" + line(text, 1) + "\n").tampered == "2: a blank line (kcontract never writes one)");
    CHECK(verifyResults(caseJson(result("x#1", Verdict::Pass)) + "\n" + line(text, 0) + "\n").tampered ==
          "1: the line has no \"chain\" digest at its end");
  }
}

TEST_CASE("results chain: a last line cut short by a kill is cut off, the rest kept", "[report][chain]") {
  ResultsChain chain;
  const std::string text = file(3, chain);
  const size_t twoLines = text.find('\n', text.find('\n') + 1) + 1;
  for (size_t keep : {twoLines + 1, twoLines + 40, text.size() - 1}) {  // any prefix of the third line
    VerifiedResults v = verifyResults(text.substr(0, keep));
    CHECK(v.tampered.empty());
    CHECK(v.cut == "3: the last line has no newline at its end (a run killed while writing it)");
    CHECK(v.records.size() == 2);
    CHECK(v.keptBytes == twoLines);
  }
  VerifiedResults v = verifyResults(text.substr(0, twoLines) + "{\"case\":\"acme\n");
  CHECK(v.cut == "3: the last line is not a whole record (it ends without its \"chain\" digest)");
  CHECK(v.keptBytes == twoLines);
  CHECK(verifyResults("").records.empty());
}

TEST_CASE("results chain: the writer seals every JSON Lines record, on stdout and in a file", "[report][chain]") {
  const ReportFormat& jsonl = *findReportFormat("jsonl");
  CHECK(jsonl.chained);
  std::ostringstream console;
  {
    ReportWriter w(jsonl, "", console);
    std::string error;
    REQUIRE(w.open(error));
    w.add(result("a#1", Verdict::Pass));
    w.add(result("a#2", Verdict::Fail));
  }
  VerifiedResults v = verifyResults(console.str());
  CHECK(v.tampered.empty());
  CHECK(v.records.size() == 2);

  fs::path out = fs::temp_directory_path() / ("kc_test_results_chain_" + std::to_string(::getpid()) + ".jsonl");
  fs::remove(out);
  std::string last;
  {
    ReportWriter w(jsonl, out.string(), console);
    std::string error;
    REQUIRE(w.open(error));
    w.add(result("a#1", Verdict::Pass));
  }
  {
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    last = verifyResults(text).last;
  }
  {
    ReportWriter w(jsonl, out.string(), console, OutMode::Append);
    w.continueChain(last);
    std::string error;
    REQUIRE(w.open(error));
    w.add(result("a#2", Verdict::Pass));
  }
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  VerifiedResults w = verifyResults(text);
  CHECK(w.tampered.empty());
  CHECK(w.records.size() == 2);
  fs::remove(out);
}
