// The three states of a calibration pair from its runs' results (checker/calibration.h): a
// skipped case is counted, never passed; under --max-memory a violating kernel not caught
// while cases were skipped past that limit is skipped, not NOT shown.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "checker/calibration.h"

namespace {

using kc::check::StateOutcome;
using kc::report::CaseResult;
using kc::report::Verdict;

CaseResult result(int number, Verdict v, std::vector<std::string> signatures = {}, std::string reason = "") {
  CaseResult r;
  r.caseId = "t.k@1#" + std::to_string(number);
  r.number = static_cast<size_t>(number);
  r.verdict = v;
  r.signatures = std::move(signatures);
  r.reason = std::move(reason);
  return r;
}

const char* kPastLimit = "needs about 80.0 MiB of host memory; the limit is 64.0 MiB (--max-memory)";

}  // namespace

TEST_CASE("calibration: the conforming state counts the skipped cases", "[calibration]") {
  auto s = kc::check::conformingState({result(1, Verdict::Pass), result(2, Verdict::Pass),
                                       result(3, Verdict::Skipped, {}, kPastLimit)});
  CHECK(s.outcome == StateOutcome::Shown);
  CHECK(s.summary == "2 cases pass, 1 SKIPPED");
}

TEST_CASE("calibration: a kernel caught with its signature is shown, skipped cases or not", "[calibration]") {
  auto s = kc::check::caughtState({result(1, Verdict::Pass), result(2, Verdict::Fail, {"tail-unwritten"}),
                                   result(3, Verdict::Skipped, {}, kPastLimit)},
                                  "tail-unwritten", true);
  CHECK(s.outcome == StateOutcome::Shown);
  CHECK(s.summary == "tail-unwritten (#2)");
}

TEST_CASE("calibration: not caught while cases were skipped past --max-memory is skipped", "[calibration]") {
  std::vector<CaseResult> rs{result(1, Verdict::Pass), result(2, Verdict::Pass),
                             result(3, Verdict::Skipped, {}, kPastLimit)};
  auto capped = kc::check::caughtState(rs, "tail-unwritten", true);
  CHECK(capped.outcome == StateOutcome::Skipped);
  CHECK(capped.summary == "not caught on the 2 cases that ran; 1 SKIPPED past --max-memory may catch it");
  // Without --max-memory the same results are NOT shown: the default limit skips only cases
  // no host could run, and a contract that stops catching its violator must fail calibration.
  auto plain = kc::check::caughtState(rs, "tail-unwritten", false);
  CHECK(plain.outcome == StateOutcome::NotShown);
  CHECK(plain.summary == "not caught");
}

TEST_CASE("calibration: caught under another name while cases were skipped past the limit", "[calibration]") {
  auto s = kc::check::caughtState({result(1, Verdict::Fail, {"unclassified"}), result(2, Verdict::Skipped, {}, kPastLimit)},
                                  "ignores-strides", true);
  CHECK(s.outcome == StateOutcome::Skipped);
  CHECK(s.summary == "caught, but not as ignores-strides on the 1 case that ran; 1 SKIPPED past --max-memory may catch it");
}

TEST_CASE("calibration: a case skipped for another reason does not excuse an uncaught kernel", "[calibration]") {
  auto s = kc::check::caughtState({result(1, Verdict::Pass), result(2, Verdict::Skipped, {}, "no CUDA device")},
                                  "tail-unwritten", true);
  CHECK(s.outcome == StateOutcome::NotShown);
  CHECK(s.summary == "not caught");
}
