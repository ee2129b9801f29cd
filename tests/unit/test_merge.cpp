// kcontract merge's library part (checker/merge.h): sealed shards verified, deduplicated,
// ordered as an unsharded run, and refused when they do not belong together.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "checker/merge.h"
#include "checker/report/chain.h"
#include "checker/report/jsonl.h"

using namespace kc;
using report::CaseResult;
using report::Verdict;

namespace {

CaseResult result(size_t number, Verdict v, const std::string& contract = "acme.relu@1", const std::string& plan = "00112233aabbccdd") {
  CaseResult r;
  r.contract = contract;
  r.kernel = "relu.c:kc_relu";
  r.backend = "host";
  r.caseId = contract + "#" + std::to_string(number);
  r.number = number;
  r.verdict = v;
  r.plan = plan;
  r.seconds = 0.25 * static_cast<double>(number);
  return r;
}

// A results file as `check --format jsonl --out` writes it: one sealed record per line.
std::string file(const std::vector<CaseResult>& results) {
  report::ResultsChain chain;
  std::string text;
  for (const auto& r : results) text += chain.seal(report::caseJson(r)) + "\n";
  return text;
}

std::vector<size_t> numbers(const check::Merged& m) {
  std::vector<size_t> n;
  for (const auto& r : m.results) n.push_back(r.number);
  return n;
}

}  // namespace

TEST_CASE("merge puts shards back in case order and keeps a case given twice once") {
  auto a = file({result(1, Verdict::Pass), result(3, Verdict::Fail)});
  auto b = file({result(2, Verdict::Pass), result(4, Verdict::Pass)});
  CaseResult again = result(3, Verdict::Fail);
  again.seconds = 9;  // another run of it: only the timing differs
  auto c = file({again});
  check::Merged m = check::mergeResults({{"a.jsonl", a}, {"b.jsonl", b}, {"c.jsonl", c}});
  REQUIRE(m.error.empty());
  CHECK(numbers(m) == std::vector<size_t>{1, 2, 3, 4});
  CHECK(m.records == 5);
  CHECK(m.duplicates == 1);
  CHECK(m.results[2].seconds == 0.75);  // the first one read is kept
}

TEST_CASE("merge drops a last line cut short, with a note, and refuses a tampered file") {
  auto a = file({result(1, Verdict::Pass), result(2, Verdict::Pass)});
  std::string cut = a.substr(0, a.size() - 20);
  check::Merged m = check::mergeResults({{"cut.jsonl", cut}});
  REQUIRE(m.error.empty());
  CHECK(numbers(m) == std::vector<size_t>{1});
  REQUIRE(m.notes.size() == 1);
  CHECK(m.notes[0].rfind("cut.jsonl:2: ", 0) == 0);

  std::string tampered = a;
  tampered.replace(tampered.find("\"seconds\":0.25"), 14, "\"seconds\":0.5");
  m = check::mergeResults({{"t.jsonl", tampered}});
  CHECK(m.error.rfind("t.jsonl:1: ", 0) == 0);
  CHECK(m.error.find("changed after kcontract wrote it: not merging") != std::string::npos);
}

TEST_CASE("merge refuses two results of one case that disagree, other plans and other contract versions") {
  auto a = file({result(1, Verdict::Pass)});
  check::Merged m = check::mergeResults({{"a.jsonl", a}, {"b.jsonl", file({result(1, Verdict::Fail)})}});
  CHECK(m.error == "b.jsonl:1: FAIL for acme.relu@1#1 (relu.c:kc_relu, host), but a.jsonl:1 has PASS: two runs of one "
                   "case disagree; not merging");

  m = check::mergeResults({{"a.jsonl", a}, {"b.jsonl", file({result(2, Verdict::Pass, "acme.relu@1", "ffffffffffffffff")})}});
  CHECK(m.error == "b.jsonl:1: case acme.relu@1#2 ran from plan ffffffffffffffff with --seed 0, but a.jsonl:1 from plan "
                   "00112233aabbccdd with --seed 0: results of different plans (the contract, --seed or --problem-shape "
                   "changed); not merging");

  m = check::mergeResults({{"a.jsonl", a}, {"b.jsonl", file({result(2, Verdict::Pass, "acme.relu@2")})}});
  CHECK(m.error == "b.jsonl:1: acme.relu@2, but a.jsonl:1 holds acme.relu@1 for the same kernel and backend: results "
                   "of different contract versions; not merging");
}
