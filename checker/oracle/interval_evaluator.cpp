// encloseCells: the walker (walker.h) over the interval domain (interval_domain.h).
#include "checker/oracle/interval_evaluator.h"

#include "checker/oracle/interval_domain.h"

namespace kc::oracle {

std::vector<Enclosure> encloseCells(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64,
                                    const std::string& def, const std::vector<Cell>& cells,
                                    const EnclosureOptions& opts) {
  detail::IntervalDomain in(ct, b, f64, opts);
  int d = in.defNumber(def);
  std::vector<Enclosure> out;
  out.reserve(cells.size());
  for (const auto& c : cells) out.push_back(in.cell(d, c));
  return out;
}

}  // namespace kc::oracle
