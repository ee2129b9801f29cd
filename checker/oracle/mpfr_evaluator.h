#pragma once
// The MPFR oracle evaluator (docs/design.md §3): the same interpreter as evaluator.h, at a
// chosen precision, for selected cells of one definition. A read of another definition
// evaluates that definition's cell in MPFR too (memoised), so the value of a cell carries
// no f64 rounding from the oracle's intermediate definitions. Inputs are exact doubles;
// literals are read from their text. Used to check the f64 oracle against a near-exact one,
// and (boundCells, with interval_evaluator.h) to bound the f64 oracle's own error.
#include <mpfr.h>

#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "checker/oracle/interval_evaluator.h"

namespace kc::oracle {

struct MpfrOptions {
  mpfr_prec_t precision = 256;
};

// The MPFR values of the given cells of definition `def` (oracle or tolerance), rounded to
// the nearest double. `f64` supplies the dims and the f64 values that whole-tensor
// statistics (max(x)) of definitions need.
std::vector<double> evalCellsMpfr(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells,
                                  const MpfrOptions& opts = {});

struct CellComparison {
  Cell cell;
  double f64 = 0;      // the f64 oracle's value
  double exact = 0;    // the MPFR value, rounded to nearest double
  std::string text;    // the MPFR value, 40 significant digits
  double absDiff = 0;  // |f64 - exact|, computed in MPFR then rounded
  double relDiff = 0;  // absDiff / |exact| (0 when both are 0; inf when only exact is 0)
};

// For each cell: the f64 value from `f64`, the MPFR value and their difference. NaN in
// either side gives NaN differences (both NaN: 0).
std::vector<CellComparison> compareCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                         const std::string& def, const std::vector<Cell>& cells,
                                         const MpfrOptions& opts = {});

// A rigorous bound on the f64 oracle's own error at one cell (interval_evaluator.h): the
// enclosure contains the exact value and every value an f64 evaluation of the definition
// can give (any summation order, libm within EnclosureOptions::libmUlps), so
//   |f64 - exact| <= bound = max(f64 - lo, hi - f64), rounded up,
// whenever f64 lies in it. The MPFR value must lie in it too: withinBound checks both.
struct CellBound {
  Cell cell;
  double f64 = 0;            // the f64 oracle's value
  Enclosure enclosure;       // [lo, hi], and whether NaN is possible
  double exact = 0;          // the MPFR value, rounded to nearest double
  std::string text;          // the MPFR value, 40 significant digits
  bool f64Inside = false;    // f64 in the enclosure
  bool exactInside = false;  // the MPFR value (unrounded) in the enclosure
  bool withinBound = false;  // both: then |f64 - exact| <= bound
  // 0 when f64 and the enclosure are both NaN for sure; +inf when the enclosure is
  // unbounded or may be NaN while f64 is not (no distance to a NaN can be bounded).
  double bound = 0;
  double relBound = 0;       // bound / |f64|, rounded up (+inf at f64 = 0 unless bound is 0)
};

// For each cell: the f64 value, its enclosure, the MPFR value at opts.precision and the
// bound. The f64 values are only compared, never used to compute the enclosure (except the
// f64 statistics of definitions, which are hulled in), so a wrong f64 value fails.
std::vector<CellBound> boundCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells,
                                  const MpfrOptions& opts = {}, const EnclosureOptions& enclosure = {});

}  // namespace kc::oracle
