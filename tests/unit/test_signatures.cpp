// Matching a failed case against the contract's signatures (checker/run/signatures): a
// pattern over cell positions alone names a failure only when its wrong cells could not have
// fallen inside it by chance; a pattern that reads the inputs needs no such margin.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiled_contract.h"
#include "checker/oracle/evaluator.h"
#include "checker/run/signatures.h"

namespace {

namespace ko = kc::oracle;

const char* kCopy = R"(kcontract 1

kernel cp(x: f32[N, C]) -> (y: f32[N, C])
  where N in 1..4096, C in 1..4096

contract t.cp@1 "copy" {
  scope {
    kernel cp
  }
  oracle f64 {
    y[n, c] = x[n, c]
  }
  tolerance {
    tol[n, c] = 0 * y*[n, c]
  }
  post {
    forall n, c: |y[n, c] - y*[n, c]| <= tol[n, c]
  }
  signature upper-channels {
    wrong cells [n, c]: c >= C / 2
  }
  signature big-inputs {
    wrong cells [n, c]: x[n, c] > 100
  }
}
)";

struct Case {
  ko::Bindings b;
  ko::OracleResult r;
};

// A 64 x 32 input of ones, with 1000 at the given cells.
Case copyCase(const kc::sema::ContractInfo& ct, const std::vector<ko::Cell>& big) {
  Case c;
  ko::Tensor x({64, 32}, 1.0);
  for (const ko::Cell& cell : big) x.data[static_cast<size_t>(cell[0] * 32 + cell[1])] = 1000;
  c.b.inputs["x"] = x;
  c.r = ko::evalOracle(ct, c.b);
  return c;
}

std::vector<std::string> match(const kc::sema::ContractInfo& ct, const Case& c, const std::vector<ko::Cell>& wrong) {
  kc::run::FailureFacts f;
  f.wrongCells = {{"y", wrong}};
  return kc::run::matchSignatures(ct, c.b, c.r, f);
}

}  // namespace

TEST_CASE("signatures: one wrong cell inside a half of the output is a coin toss, not a position pattern", "[signatures]") {
  auto p = kc::test::compileContract(kCopy);
  Case c = copyCase(*p->ct, {});
  CHECK(match(*p->ct, c, {{5, 20}}).empty());
  // Four cells: 1 in 16, still chance.
  CHECK(match(*p->ct, c, {{0, 16}, {1, 17}, {2, 18}, {3, 31}}).empty());
  // Sixteen cells, all in the upper half: far below 1 in 1000.
  std::vector<ko::Cell> sixteen;
  for (int64_t n = 0; n < 16; ++n) sixteen.push_back({n, 16 + n});
  CHECK(match(*p->ct, c, sixteen) == std::vector<std::string>{"upper-channels"});
  // One cell outside the pattern: no match, however many are inside.
  sixteen.push_back({20, 3});
  CHECK(match(*p->ct, c, sixteen).empty());
}

TEST_CASE("signatures: a pattern that reads the inputs names even one wrong cell", "[signatures]") {
  auto p = kc::test::compileContract(kCopy);
  Case c = copyCase(*p->ct, {{5, 3}});
  CHECK(match(*p->ct, c, {{5, 3}}) == std::vector<std::string>{"big-inputs"});
  CHECK(match(*p->ct, c, {{5, 4}}).empty());
}
