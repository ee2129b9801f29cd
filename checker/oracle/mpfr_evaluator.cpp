// The MPFR oracle evaluator: the walker (walker.h) over the MPFR domain (mpfr_domain.h) for
// chosen cells; compareCells and boundCells set its values beside the f64 ones.
#include "checker/oracle/mpfr_evaluator.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "checker/oracle/mpfr_domain.h"

namespace kc::oracle {

namespace {
using detail::Mp;
constexpr mpfr_rnd_t RN = MPFR_RNDN;
}  // namespace

std::vector<double> evalCellsMpfr(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells, const MpfrOptions& opts) {
  detail::MpfrDomain in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<double> out;
  for (const auto& c : cells) out.push_back(mpfr_get_d(in.cell(d, c).v, RN));
  return out;
}

namespace {

double f64Value(const OracleResult& f64, const std::string& def, const Cell& c) {
  auto oit = f64.oracle.find(def);
  const Tensor* t = oit != f64.oracle.end() ? &oit->second : nullptr;
  if (!t) {
    auto tit = f64.tolerance.find(def);
    if (tit == f64.tolerance.end()) throw EvalError("no f64 values of '" + def + "'");
    t = &tit->second;
  }
  try {
    return t->at(c);
  } catch (const std::out_of_range& e) {
    throw EvalError("'" + def + "': " + e.what());
  }
}

std::string text40(const mpfr_t v) {
  char buf[128];
  mpfr_snprintf(buf, sizeof buf, "%.40Rg", v);
  return buf;
}

}  // namespace

std::vector<CellComparison> compareCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                         const std::string& def, const std::vector<Cell>& cells,
                                         const MpfrOptions& opts) {
  detail::MpfrDomain in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<CellComparison> out;
  Mp diff(opts.precision);
  for (const auto& c : cells) {
    CellComparison r;
    r.cell = c;
    r.f64 = f64Value(f64, def, c);
    Mp v = in.cell(d, c);
    r.exact = mpfr_get_d(v.v, RN);
    r.text = text40(v.v);
    if (std::isnan(r.f64) && mpfr_nan_p(v.v)) {
      r.absDiff = r.relDiff = 0;
    } else if (std::isinf(r.f64) && mpfr_inf_p(v.v) && (r.f64 > 0) == (mpfr_sgn(v.v) > 0)) {
      r.absDiff = r.relDiff = 0;
    } else {
      mpfr_set_d(diff.v, r.f64, RN);
      mpfr_sub(diff.v, diff.v, v.v, RN);
      mpfr_abs(diff.v, diff.v, RN);
      r.absDiff = mpfr_get_d(diff.v, MPFR_RNDU);
      if (mpfr_zero_p(v.v)) {
        r.relDiff = r.absDiff == 0 ? 0 : INFINITY;
      } else {
        mpfr_div(diff.v, diff.v, v.v, RN);
        mpfr_abs(diff.v, diff.v, RN);
        r.relDiff = mpfr_get_d(diff.v, MPFR_RNDU);
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<CellBound> boundCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                  const std::string& def, const std::vector<Cell>& cells, const MpfrOptions& opts,
                                  const EnclosureOptions& enclosure) {
  std::vector<Enclosure> enc = encloseCells(ct, b, f64, def, cells, enclosure);
  detail::MpfrDomain in(ct, b, f64, opts.precision);
  int d = in.defNumber(def);
  std::vector<CellBound> out;
  Mp t(53);
  // a - b rounded up (a, b doubles); NaN for inf - inf.
  auto diffUp = [&](double a, double b) {
    mpfr_set_d(t.v, a, RN);
    mpfr_sub_d(t.v, t.v, b, MPFR_RNDU);
    return mpfr_get_d(t.v, MPFR_RNDU);
  };
  for (size_t k = 0; k < cells.size(); ++k) {
    CellBound r;
    r.cell = cells[k];
    r.enclosure = enc[k];
    const Enclosure& e = r.enclosure;
    r.f64 = f64Value(f64, def, r.cell);
    Mp v = in.cell(d, r.cell);
    r.exact = mpfr_get_d(v.v, RN);
    r.text = text40(v.v);
    r.f64Inside = e.contains(r.f64);
    r.exactInside = mpfr_nan_p(v.v) ? e.nan : e.real && mpfr_cmp_d(v.v, e.lo) >= 0 && mpfr_cmp_d(v.v, e.hi) <= 0;
    r.withinBound = r.f64Inside && r.exactInside;
    if (std::isnan(r.f64)) {
      r.bound = !e.real && e.nan ? 0 : INFINITY;
    } else if (e.nan || !e.real) {
      r.bound = INFINITY;
    } else if (e.lo == e.hi && e.lo == r.f64) {
      r.bound = 0;  // also an infinite point: the exact value is that infinity
    } else {
      r.bound = std::max(diffUp(r.f64, e.lo), diffUp(e.hi, r.f64));
      if (std::isnan(r.bound)) r.bound = INFINITY;
    }
    if (r.bound == 0) {
      r.relBound = 0;
    } else {
      mpfr_set_d(t.v, r.bound, RN);
      mpfr_div_d(t.v, t.v, std::fabs(r.f64), MPFR_RNDU);
      r.relBound = std::isnan(r.f64) ? INFINITY : mpfr_get_d(t.v, MPFR_RNDU);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kc::oracle
