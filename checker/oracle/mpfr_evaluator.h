#pragma once
// The MPFR oracle evaluator (DESIGN.md §3): the same interpreter as evaluator.h, at a
// chosen precision, for selected cells of one definition. A read of another definition
// evaluates that definition's cell in MPFR too (memoised), so the value of a cell carries
// no f64 rounding from the oracle's intermediate definitions. Inputs are exact doubles;
// literals are read from their text. Used to check the f64 oracle against a near-exact one.
#include <mpfr.h>

#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"

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

}  // namespace kc::oracle
