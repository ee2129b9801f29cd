#pragma once
// The interval domain of the walker (walker.h): each value an Enclosure (interval_arith.h),
// conditions three-valued (an undecided if-then-else takes the hull of both branches),
// sums and products in any order (SumBound, ProdBound), libm widened by
// EnclosureOptions::libmUlps. Cells of definitions come from CellOracle (cells.h).
#include <cstdint>
#include <map>

#include "checker/oracle/cells.h"
#include "checker/oracle/interval_arith.h"
#include "checker/oracle/interval_evaluator.h"

namespace kc::oracle::detail {

class IntervalDomain : public CellOracle<IntervalDomain, Enclosure> {
 public:
  using Value = Enclosure;
  using Truth = Tri;
  static constexpr bool kThreeValued = true;

  IntervalDomain(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                 const EnclosureOptions& opts)
      : CellOracle(ct, b, f64), opts_(opts) {}

  static Enclosure fromDouble(double v) { return interval::point(v); }
  static Enclosure fromInt(int64_t i) { return interval::fromInt(i); }
  static Enclosure fromTruth(Tri t);
  static Enclosure literal(const PNode& n);  // its text rounded down and up, hulled with the double
  static Enclosure constant(double d) { return interval::point(d); }
  Enclosure stat(const PNode& n);

  static Enclosure neg(const Enclosure& x) { return interval::neg(x); }
  static Enclosure abs(const Enclosure& x) { return interval::absIv(x); }
  static Enclosure add(const Enclosure& x, const Enclosure& y) { return interval::add(x, y); }
  static Enclosure sub(const Enclosure& x, const Enclosure& y) { return interval::add(x, interval::neg(y)); }
  static Enclosure mul(const Enclosure& x, const Enclosure& y) { return interval::mul(x, y); }
  static Enclosure div(const Enclosure& x, const Enclosure& y) { return interval::div(x, y); }
  Enclosure pow(const Enclosure& x, const Enclosure& y) const { return interval::powIv(x, y, opts_.libmUlps); }
  static Enclosure extreme(bool isMax, const Enclosure& x, const Enclosure& y);
  Enclosure call(Fn f, const Enclosure& x) const;
  static Enclosure ulp(numerics::DType t, const Enclosure& x);
  static Enclosure gamma(int64_t k, numerics::DType t);
  static Enclosure roundTo(numerics::DType t, const Enclosure& x);
  static Enclosure hull(const Enclosure& a, const Enclosure& b) { return interval::hull(a, b); }

  static interval::SumBound sum() { return {}; }
  static interval::ProdBound prod() { return {}; }
  static interval::ExtremeBound max() { return interval::ExtremeBound(true); }
  static interval::ExtremeBound min() { return interval::ExtremeBound(false); }

  static Tri compare(ir::Op op, const Enclosure& a, const Enclosure& b) { return interval::compare(op, a, b); }
  static Tri classify(Fn f, const Enclosure& x);

 private:
  EnclosureOptions opts_;
  std::map<const PNode*, Enclosure> statValues_;
};

}  // namespace kc::oracle::detail
