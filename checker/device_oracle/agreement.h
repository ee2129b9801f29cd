#pragma once
// kcontract oracle: the compiled oracle (compiled_oracle.h) against the f64 interpreter, cell
// for cell, on the inputs of a contract's plan cases (docs/oracle.md, "The compiled oracle").
// The interpreter stays the reference. On the host target the two must agree bit for bit
// except where the interpreter hands a contraction to BLAS, whose order of additions differs;
// on CUDA the device's libm (exp, log, tanh: within 2 ulp) differs too. A cell agrees when both
// are NaN, both are equal, or they differ by at most kAgreeRelative of the larger magnitude
// among the two values and the definition's largest finite value (a sum's cancellation keeps
// the absolute error of its terms).
#include <cstdint>
#include <string>
#include <vector>

#include "checker/device_oracle/compiled_oracle.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::device_oracle {

inline constexpr double kAgreeRelative = 1e-12;

struct AgreementOptions {
  Target target = Target::Host;
  std::string arch;               // cuda: the device's architecture
  uint64_t maxBytes = 64ull << 20;  // cases whose tensors need more are skipped
  unsigned threads = 2;           // the interpreter's
};

struct DefinitionAgreement {
  std::string name;
  bool tolerance = false;
  uint64_t cells = 0;
  uint64_t identical = 0;  // bitwise (or both NaN)
  uint64_t outside = 0;    // beyond the bound
  double worst = 0;        // the largest |compiled - interpreter| / bound-scale seen
  std::string firstOutside;  // "[i, j]: compiled C, interpreter H"
};

struct CaseAgreement {
  size_t number = 0;
  std::string dims;     // "R=4, H=1000"
  std::string dtypes;   // "T=f32"
  std::string skipped;  // why not compared ("" when compared)
  std::string error;    // the interpreter or the program failed
  double interpreterSeconds = 0, compiledSeconds = 0, programSeconds = 0;
  std::vector<DefinitionAgreement> defs;
  bool agrees() const;
};

struct ContractAgreement {
  std::string id;
  std::vector<CaseAgreement> cases;
  std::vector<std::string> notLowered;  // per dtype binding: "T=f16: not lowered: ..."
};

ContractAgreement compareOracles(const sema::ContractInfo& ct, const plan::Plan& plan, const AgreementOptions& opts);

}  // namespace kc::device_oracle
