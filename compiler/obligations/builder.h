#pragma once
// Inside the obligations only: what each kind's builder shares (obligations.cpp,
// fault_models.cpp). One Builder per obligation, with its own script and names, so that
// every script stands alone and prints the same way every time.
#include <string>
#include <vector>

#include "compiler/obligations/obligations.h"
#include "compiler/obligations/smtlib.h"
#include "compiler/obligations/unroll.h"

namespace kc::obl::detail {

inline constexpr const char* kFiniteNote = "inputs are finite reals: isnan and isinf are false, isfinite is true";

inline std::string dimsText(const ReducedShape& s) { return s.describe(); }

inline std::string originText(const sema::Condition& p) { return p.origin.fromClass ? "  [from " + p.origin.id + "]" : ""; }

inline std::string shorten(std::string s, size_t max = 100) {
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

struct Builder {
  const sema::ContractInfo& c;
  const BuildOptions& opts;
  ReducedShape shape;
  smt::Script script;
  smt::NameTable names;
  Unroller u;
  std::string estimate;

  Builder(const sema::ContractInfo& ci, const BuildOptions& o, ReducedShape s)
      : c(ci), opts(o), shape(std::move(s)), u(c, shape, script, names) {}

  void assertPre() {
    for (size_t i = 0; i < c.pre.size(); ++i) {
      const auto& p = c.pre[i];
      script.assertTerm("the precondition", "pre: " + ir::print(*p.expr) + originText(p), u.term(*p.expr));
    }
  }

  Obligation finish(const std::string& id, Kind kind, Answer expected, const std::string& purpose,
                    const SourceRange& range, const std::vector<std::string>& model);
};


// Whether e is a closeness postcondition on output `out`: forall ...: |out - out*| <= tol (or >=).
bool isCloseness(const ir::Node& e, const std::string& out);

// The dtype a tensor's cells have at the reduced shape ("" when unknown).
std::string resolvedDType(const sema::TensorInfo& t, const ReducedShape& shape);

// sum(v, if e == v then x else 0): at most one term is not zero (a gather written as a selection).
bool selectsOne(const ir::Node& reduce);

// The fault-model obligations of output y under closeness postcondition `post`: does the
// tolerance catch a bf16 accumulator (blind-band-accumulator), operands rounded to TF32 before
// the products (blind-band-operand)? fault_models.cpp.
void faultModels(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape,
                 const sema::TensorInfo& y, const sema::Condition& post, ObligationSet& out);

}  // namespace kc::obl::detail
