#pragma once
// The MPFR domain of the walker (walker.h): every value an Mp at one precision, each
// operation correctly rounded to nearest at it; literals from their text (0.1 exactly).
// Conditions are decided on these values. Operations take their first operand by value and
// work in place (the walker moves it in), so a node costs one allocation at most. Cells of
// definitions come from CellOracle (cells.h).
#include <mpfr.h>

#include <cstdint>

#include "checker/oracle/cells.h"
#include "checker/oracle/mp.h"
#include "checker/oracle/truth.h"

namespace kc::oracle::detail {

class MpfrDomain : public CellOracle<MpfrDomain, Mp> {
 public:
  using Value = Mp;
  using Truth = bool;
  static constexpr bool kThreeValued = false;

  MpfrDomain(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64, mpfr_prec_t prec);

  Mp fromDouble(double v) const { return set(v); }
  Mp fromInt(int64_t i) const;
  Mp fromTruth(bool b) const { return fromInt(b ? 1 : 0); }
  Mp literal(const PNode& n) const;
  Mp constant(double d) const { return set(d); }
  Mp stat(const PNode& n) const { return set(n.d); }  // the f64 statistic (docs/oracle.md, "Not yet")

  static Mp neg(Mp x);
  static Mp abs(Mp x);
  static Mp add(Mp x, const Mp& y);
  static Mp sub(Mp x, const Mp& y);
  static Mp mul(Mp x, const Mp& y);
  static Mp div(Mp x, const Mp& y);
  static Mp pow(Mp x, const Mp& y);
  static Mp extreme(bool isMax, Mp x, const Mp& y);
  static Mp call(Fn f, Mp x);
  Mp ulp(numerics::DType t, const Mp& x) const;
  Mp gamma(int64_t k, numerics::DType t) const;
  Mp roundTo(numerics::DType t, const Mp& x) const;

  // Reductions accumulate in place, left to right.
  struct Acc {
    Mp acc;
    Fn fn;
    void add(const Mp& v);
    Mp result() { return std::move(acc); }
  };
  Acc sum() const;
  Acc prod() const;
  Acc max() const;
  Acc min() const;

  static bool compare(ir::Op op, const Mp& a, const Mp& b);
  static bool classify(Fn f, const Mp& x);

 private:
  Mp set(double d) const;
  mpfr_prec_t prec_;
};

}  // namespace kc::oracle::detail
