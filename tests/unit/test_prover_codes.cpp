// The prover's findings (prover/prove.h, prover/precheck.h) are catalogue diagnostics: every
// code a finding prints is a KC3xxx entry of compiler/diag/catalog.def, the entries `kcontract
// explain`'s users and the SARIF rules read.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "compiler/diag/diagnostics.h"
#include "prover/prove.h"

namespace {

std::set<std::string> obligationCodes() {
  std::set<std::string> codes;
  for (kc::DiagCode c : kc::allDiagCodes())
    if (kc::diagInfo(c).number / 1000 == 3) codes.insert(kc::diagCodeString(c));
  return codes;
}

}  // namespace

TEST_CASE("every prove finding has a KC3xxx code of the catalogue", "[prover]") {
  using kc::prove::Verdict;
  const std::set<std::string> catalogue = obligationCodes();
  REQUIRE(!catalogue.empty());
  for (int k = 0; k <= static_cast<int>(kc::obl::Kind::BlindBandOperand); ++k) {
    kc::obl::Obligation o;
    o.kind = static_cast<kc::obl::Kind>(k);
    bool blind = o.kind == kc::obl::Kind::BlindBandDetect || o.kind == kc::obl::Kind::BlindBandAccumulator ||
                 o.kind == kc::obl::Kind::BlindBandOperand;
    INFO(kc::obl::kindName(o.kind));
    for (Verdict v : {Verdict::Problem, Verdict::NotProven, Verdict::Error}) {
      std::string code = kc::prove::findingCode(o, v);
      INFO(kc::prove::verdictName(v));
      if (blind && v == Verdict::Problem)
        CHECK(code.empty());  // a blind tolerance is reported as blind, never as a problem
      else
        CHECK(catalogue.count(code) == 1);
    }
  }
  CHECK(kc::prove::findingCode(kc::obl::Obligation{}, Verdict::NotProven) == kc::diagCodeString(kc::DiagCode::NotProven));
  // The vacuity precheck of `kcontract check` prints these two.
  CHECK(catalogue.count(kc::diagCodeString(kc::DiagCode::VacuousPrecondition)) == 1);
  CHECK(catalogue.count(kc::diagCodeString(kc::DiagCode::NotProven)) == 1);
}
