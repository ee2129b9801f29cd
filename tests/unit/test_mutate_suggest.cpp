// The suggest stage's plan changes (mutate/suggest.h): which changes a contract gets, and
// what each does to a plan: one factor moved on a few of the plan's own cases.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"
#include "mutate/suggest.h"

namespace {

const char* kContract = R"(kcontract 1
kernel k(x: T[R, H], idx: i32[R], eps: f32) -> (y: T[R, H])
  where T in {f32, bf16}, R in 1..64, H in 1..100

contract acme.s@1 {
  scope { kernel k }
  pre { forall r: 0 <= idx[r] < R }
  oracle { y[r, h] = x[r, h] + eps }
  post { forall r, h: |y[r, h] - y*[r, h]| <= 1e-3 }
  protocol {
    dims R in {1, 3}, H in {7, 30}
    values x ~ uniform(-1, 1) | normal(0, 1) | special(nan: 1%), idx ~ integers(0, R - 1)
  }
}
)";

}  // namespace

TEST_CASE("suggest: value changes for floating inputs only, dims grown within their range") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", kContract, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  const kc::sema::ContractInfo& contract = *c.program->contracts.back();
  kc::plan::Plan reference = kc::plan::makePlan(contract, {});
  std::vector<std::string> texts;
  for (const auto& ch : kc::mutate::planChanges(contract, reference)) texts.push_back(ch.text);
  // normal(0, 1) is in the plan already; idx (an index) and eps (a scalar) get no value change;
  // R grows to 4 * 3 + 1, H to 4 * 30 + 1 = 121, past its range, so to 100.
  CHECK(texts == std::vector<std::string>{"values x ~ uniform(-100000, 100000)", "values x ~ normal(100, 1)",
                                          "dims R in {13}", "dims R in {13}, values x ~ normal(0, 1)",
                                          "dims H in {100}", "dims H in {100}, values x ~ normal(0, 1)"});
}

TEST_CASE("suggest: a change rewrites at most kSuggestCases of the plan's own cases, one factor moved") {
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", kContract, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  const kc::sema::ContractInfo& contract = *c.program->contracts.back();
  kc::plan::Plan reference = kc::plan::makePlan(contract, {});
  auto changes = kc::mutate::planChanges(contract, reference);
  REQUIRE(changes.size() == 6);

  kc::plan::Plan wide = reference;
  changes[0].apply(wide);
  REQUIRE_FALSE(wide.cases.empty());
  CHECK(wide.cases.size() <= kc::mutate::kSuggestCases);
  for (size_t k = 0; k < wide.cases.size(); ++k) {
    const auto& cs = wide.cases[k];
    CHECK(cs.number == k + 1);
    CHECK(cs.id == "acme.s@1#suggested-" + std::to_string(k + 1));
    for (const auto& [input, v] : cs.values) {
      const auto& t = *std::find_if(wide.tensors.begin(), wide.tensors.end(), [&](const auto& tp) { return tp.name == input; });
      if (input == "x") CHECK(t.values[v].text == "uniform(-100000, 100000)");
      if (input == "idx") CHECK(t.values[v].text == "integers(0, R - 1)");
    }
  }

  kc::plan::Plan grown = reference;
  changes[2].apply(grown);
  REQUIRE_FALSE(grown.cases.empty());
  for (const auto& cs : grown.cases) {
    for (const auto& [d, v] : cs.dims)
      if (d == "R") CHECK(v == 13);
    CHECK(cs.memoryBytes > 0);  // remeasured at R = 13
  }
}
