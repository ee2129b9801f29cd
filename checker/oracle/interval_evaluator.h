#pragma once
// Rigorous enclosures of oracle cells (docs/design.md §3: "error of the f64 oracle itself
// bounded"). The interpreter of evaluator.h, over intervals with MPFR's directed rounding:
// the enclosure of a cell contains the exact real value of its definition AND every value
// an f64 evaluation of the same expression tree can give, where
//   - +, -, *, /, sqrt and conversions round to nearest (IEEE 754);
//   - exp, log, tanh, erf, sin, cos, pow, ... (libm) are off by up to `libmUlps` ulps;
//   - a sum or product of n terms is taken in ANY order (or tree, or with FMAs), not only
//     left to right: the a-priori bound gamma_{n-1} sum |x_i| (Higham, Accuracy and
//     Stability of Numerical Algorithms, 2nd ed., §4.2) is added to the exact sum's
//     enclosure, gamma_n |prod x_i| to a product's;
//   - a definition read by another is any value of its own enclosure (the f64 oracle stores
//     each definition rounded, the exact one does not: both are in there).
// A condition that the interval cannot decide takes the hull of both branches.
#include <cmath>
#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"

namespace kc::oracle {

// A set of values: the extended reals in [lo, hi] when `real`, and NaN when `nan` (a cell
// that is NaN for sure has real = false).
struct Enclosure {
  double lo = 0, hi = 0;
  bool real = true;
  bool nan = false;
  bool contains(double v) const { return std::isnan(v) ? nan : real && lo <= v && v <= hi; }
};

struct EnclosureOptions {
  // The error, in ulps of the correctly rounded result, allowed to each libm call of the f64
  // oracle. glibc does not round these correctly; its manual ("Known Maximum Errors in Math
  // Functions") lists at most 2 ulps for exp, exp2, log, log2, log10, sin, cos, tanh, erf and
  // pow in double. Each endpoint is widened by (libmUlps + 1/2) ulps (the half for the
  // distance between the exact value and its correct rounding), taken as
  // (libmUlps + 1) (2^-52 |v| + 2^-1074) so that it holds in every binade.
  unsigned libmUlps = 4;
};

// Enclosures of the given cells of definition `def` (oracle or tolerance). `f64` supplies
// the dims. Statistics over whole tensors (max(x)): for inputs and outputs from their exact
// values; for a definition from the enclosures of all of its cells (so they cost a whole
// tensor in interval arithmetic), hulled with the f64 statistic.
std::vector<Enclosure> encloseCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                    const std::string& def, const std::vector<Cell>& cells,
                                    const EnclosureOptions& opts = {});

}  // namespace kc::oracle
