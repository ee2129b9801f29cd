// Symbolic obligations (compiler/obligations): the kinds built for the softmax example,
// determinism of the scripts, exact real literals, symbol escaping, and the index-width
// estimates at their trivial ends.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "compiler/obligations/obligations.h"
#include "compiler/obligations/smtlib.h"
#include "compiler/pipeline.h"

namespace {

namespace obl = kc::obl;
namespace smt = kc::obl::smt;

struct Built {
  kc::Compilation c;
  std::vector<obl::Obligation> obligations;
  std::vector<obl::Skipped> skipped;
};

std::unique_ptr<Built> buildFile(const std::string& path) {
  auto b = std::make_unique<Built>();
  kc::compile(b->c, {path}, kc::Stage::Sema);
  REQUIRE_FALSE(b->c.diags.hasErrors());
  for (const auto& ct : b->c.program->contracts) {
    if (ct->isClass || std::find(b->c.fileIds.begin(), b->c.fileIds.end(), ct->range.file) == b->c.fileIds.end())
      continue;
    auto set = obl::buildObligationSet(*ct);
    for (auto& o : set.obligations) b->obligations.push_back(std::move(o));
    for (auto& s : set.skipped) b->skipped.push_back(std::move(s));
  }
  return b;
}

std::unique_ptr<Built> buildText(const std::string& text) {
  auto b = std::make_unique<Built>();
  kc::compileText(b->c, "t.kcontract", text, kc::Stage::Sema);
  REQUIRE_FALSE(b->c.diags.hasErrors());
  for (const auto& ct : b->c.program->contracts) {
    if (ct->isClass) continue;
    auto set = obl::buildObligationSet(*ct);
    for (auto& o : set.obligations) b->obligations.push_back(std::move(o));
    for (auto& s : set.skipped) b->skipped.push_back(std::move(s));
  }
  return b;
}

const std::string kSoftmax = std::string(KC_SOURCE_DIR) + "/examples/softmax/softmax.kcontract";

const obl::Obligation* find(const Built& b, const std::string& id) {
  for (const auto& o : b.obligations)
    if (o.id == id) return &o;
  return nullptr;
}

}  // namespace

TEST_CASE("obligations: the kinds built for the softmax example", "[obligations]") {
  auto b = buildFile(kSoftmax);
  std::vector<std::string> ids;
  for (const auto& o : b->obligations) ids.push_back(o.id + " " + obl::kindName(o.kind) + " " + obl::answerName(o.expected));
  std::vector<std::string> expected = {
      "acme.softmax.rows@1/pre-satisfiable pre-satisfiable sat",
      "acme.softmax.rows@1/index-width-31/x index-width-31 unsat",
      "acme.softmax.rows@1/index-width-31/y index-width-31 unsat",
      "acme.softmax.rows@1/index-width-32/x index-width-32 unsat",
      "acme.softmax.rows@1/index-width-32/y index-width-32 unsat",
      "acme.softmax.rows@1/defined/y/div-1 defined unsat",
      "acme.softmax.rows@1/defined/w/div-1 defined unsat",  // the tolerance's row weight w[r]
      "acme.softmax.rows@1/blind-band-detect blind-band-detect sat",
      "acme.softmax.rows@1/blind-band-correct blind-band-correct unsat",
  };
  CHECK(ids == expected);
  CHECK(b->skipped.empty());

  // R * H reaches 65536 * 262144 = 2^34 elements: both widths can overflow.
  const auto* w31 = find(*b, "acme.softmax.rows@1/index-width-31/x");
  REQUIRE(w31);
  CHECK(w31->estimate == "sat: R*H reaches 17179869184 at the dims' maxima");
  CHECK(w31->smt2.find("(set-logic QF_NIA)") != std::string::npos);
  CHECK(w31->smt2.find("(assert (> (* R H) 2147483648))") != std::string::npos);

  // Every script is complete SMT-LIB2: options before the logic, one check-sat.
  for (const auto& o : b->obligations) {
    INFO(o.id);
    CHECK(o.smt2.find("(set-option :produce-models true)\n(set-logic ") != std::string::npos);
    CHECK(o.smt2.find("(check-sat)\n") != std::string::npos);
    CHECK((o.smt2.find("(get-model)") != std::string::npos) == (o.expected == obl::Answer::Sat));
    CHECK_FALSE(o.purpose.empty());
    CHECK(o.range.valid());
  }
  // The division by the row sum is defined because exp is positive.
  const auto* div = find(*b, "acme.softmax.rows@1/defined/y/div-1");
  REQUIRE(div);
  CHECK(div->smt2.find("(declare-fun exp_real (Real) Real)") != std::string::npos);
  CHECK(div->smt2.find("(assert (> (exp_real (- x_0_0 m*_0)) 0.0))") != std::string::npos);
}

TEST_CASE("obligations: the same contract gives byte-identical scripts", "[obligations]") {
  auto a = buildFile(kSoftmax);
  auto b = buildFile(kSoftmax);
  REQUIRE(a->obligations.size() == b->obligations.size());
  for (size_t i = 0; i < a->obligations.size(); ++i) {
    CHECK(a->obligations[i].id == b->obligations[i].id);
    CHECK(a->obligations[i].smt2 == b->obligations[i].smt2);
  }
}

TEST_CASE("obligations: reals are written exactly", "[obligations][smtlib]") {
  CHECK(smt::realLiteral(0.1) == "0.1000000000000000055511151231257827021181583404541015625");
  CHECK(smt::exactDecimal(0.1) == "0.1000000000000000055511151231257827021181583404541015625");
  CHECK(smt::realLiteral(0.5) == "0.5");
  CHECK(smt::realLiteral(-0.5) == "(- 0.5)");
  CHECK(smt::realLiteral(0.0) == "0.0");
  CHECK(smt::realLiteral(-0.0) == "0.0");
  CHECK(smt::realLiteral(3.0) == "3.0");
  CHECK(smt::realLiteral(1024.0) == "1024.0");
  CHECK(smt::realLiteral(0x1p-23) == "0.00000011920928955078125");
  CHECK(smt::realLiteral(0x1p64) == "18446744073709551616.0");

  // 1e-300 is m * 2^-1049 with m odd: too long as a decimal, so a ratio with a power of two.
  std::string tiny = smt::realLiteral(1e-300);
  REQUIRE(tiny.rfind("(/ ", 0) == 0);
  std::string num = tiny.substr(3, tiny.find(' ', 3) - 3);
  std::string den = tiny.substr(tiny.find(' ', 3) + 1);
  den = den.substr(0, den.size() - 1);
  CHECK(num == "6032057205060441.0");  // 1e-300 = 6032057205060441 / 2^1049 (odd numerator)
  CHECK(den.size() == 318);            // 2^1049 has 316 digits, plus ".0"
  CHECK(den.substr(den.size() - 2) == ".0");
  // Its exact decimal: 299 zeros after the point, then the digits of the double.
  std::string dec = smt::exactDecimal(1e-300);
  CHECK(dec.rfind("0." + std::string(299, '0') + "10000000000000000250590918352", 0) == 0);
  CHECK(dec.substr(dec.size() - 30) == "376539011485874652862548828125");
  CHECK(dec.size() == 2 + 1049);  // exactly 1049 digits after the point, the last nonzero
  CHECK(dec.back() != '0');

  CHECK_THROWS(smt::realLiteral(std::numeric_limits<double>::infinity()));
  CHECK(smt::intLiteral(-7) == "(- 7)");
  CHECK(smt::print(*smt::intPower(2, 64)) == "18446744073709551616");
  CHECK(smt::print(*smt::intPower(-3, 3)) == "(- 27)");
  CHECK(smt::intLiteral(INT64_MIN) == "(- 9223372036854775808)");
}

TEST_CASE("obligations: names are valid and unique SMT-LIB symbols", "[obligations][smtlib]") {
  CHECK(smt::isSimpleSymbol("x_0_1"));
  CHECK(smt::isSimpleSymbol("y*_0_1"));
  CHECK_FALSE(smt::isSimpleSymbol("0x"));
  CHECK_FALSE(smt::isSimpleSymbol("a b"));
  CHECK_FALSE(smt::isSimpleSymbol(""));
  CHECK(smt::quoteSymbol("x_0") == "x_0");
  CHECK(smt::quoteSymbol("a b") == "|a b|");
  CHECK(smt::quoteSymbol("a|b\\c") == "|a_b_c|");
  CHECK(smt::quoteSymbol("0x") == "|0x|");

  smt::NameTable names;
  CHECK(names.symbol("dim:exp", "exp") == "exp_");    // a theory function cannot be redeclared
  CHECK(names.symbol("dim:abs", "abs") == "abs_");
  CHECK(names.symbol("dim:let", "let") == "let_");    // a reserved word
  CHECK(names.symbol("k1", "@x") == "_x");            // '@' starts solver-reserved names
  CHECK(names.symbol("input:x_0_1", "x_0_1") == "x_0_1");
  CHECK(names.symbol("input:x_0_1", "ignored") == "x_0_1");  // same key, same symbol
  CHECK(names.symbol("input:x_0:1", "x_0_1") == "x_0_1_2");  // a clash gets a suffix
  CHECK(names.symbol("k2", "two words") == "|two words|");

  CHECK(obl::sanitiseId("acme.softmax.rows@1/defined/y/div-1") == "acme.softmax.rows@1_defined_y_div-1");
}

TEST_CASE("obligations: index-width estimates at their trivial ends", "[obligations]") {
  auto b = buildText(R"(kcontract 1
kernel k(x: f32[N, M]) -> (y: f32[N])
  where N in 1..1000, M in 1..1000
contract acme.small@1 {
  scope {
    kernel k
  }
  oracle f64 {
    y[i] = sum(j, x[i, j])
  }
  post {
    forall i: y[i] >= 0
  }
}
kernel big(x: f32[N, M]) -> (y: f32[N])
  where N in 65536..65536, M in 32769..32769
contract acme.big@1 {
  scope {
    kernel big
  }
  oracle f64 {
    y[i] = sum(j, x[i, j])
  }
  post {
    forall i: y[i] >= 0
  }
}
)");
  const auto* small = find(*b, "acme.small@1/index-width-31/x");
  REQUIRE(small);
  CHECK(small->expected == obl::Answer::Unsat);
  CHECK(small->estimate == "unsat (trivially): N*M is at most 1000000");
  CHECK(small->smt2.find("(assert (<= 1 N 1000))") != std::string::npos);
  CHECK(small->smt2.find("(assert (> (* N M) 2147483648))") != std::string::npos);  // plan/index_width.h
  const auto* small1 = find(*b, "acme.small@1/index-width-32/y");
  REQUIRE(small1);
  CHECK(small1->estimate == "unsat (trivially): N is at most 1000");

  // 2^16 * (2^15 + 1): over 2^31 (an element at index 2^31), not over 2^32.
  const auto* big31 = find(*b, "acme.big@1/index-width-31/x");
  const auto* big32 = find(*b, "acme.big@1/index-width-32/x");
  REQUIRE(big31);
  REQUIRE(big32);
  CHECK(big31->estimate == "sat: N*M reaches 2147549184 at the dims' maxima");
  CHECK(big32->estimate == "unsat (trivially): N*M is at most 2147549184");
  CHECK(big31->purpose.find("the plan must hold a large-index case or the scope must exclude it") != std::string::npos);
  // No closeness post: no blind-band obligation; dims at lo > 8 stay symbolic.
  for (const auto& o : b->obligations) {
    CHECK(o.kind != obl::Kind::BlindBandDetect);
    CHECK(o.kind != obl::Kind::BlindBandCorrect);
  }
}

TEST_CASE("obligations: the reduced shape", "[obligations]") {
  auto b = buildText(R"(kcontract 1
kernel k(x: f32[R, H], b: f32[B], c: f32[C]) -> (y: f32[R, H])
  where R in 1..1, H in 1..1024, B in 2..9, C in 20..40
contract acme.shape@1 {
  scope {
    kernel k
  }
  pre {
    H % 4 == 0
  }
  oracle f64 {
    y[r, h] = x[r, h]
  }
  post {
    forall r, h: y[r, h] >= 0
  }
}
)");
  const auto& c = *b->c.program->contracts.back();
  obl::ReducedShape s = obl::reducedShape(c);
  CHECK(s.fixed.at("R") == 1);
  CHECK(s.fixed.at("H") == 4);  // the smallest multiple of 4 from 2 up
  CHECK(s.fixed.at("B") == 3);
  CHECK(s.free.count("C") == 1);
  CHECK(s.describe() == "R = 1, H = 4, B = 3, C in 20..40");
}
