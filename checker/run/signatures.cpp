#include "checker/run/signatures.h"

#include <algorithm>

namespace kc::run {

namespace {

using Kind = ast::SignatureClauseKind;

// P at every wrong cell of the clause's output (and there is at least one).
bool wrongCellsHold(const sema::SignatureClause& cl, const sema::ContractInfo& ct, const oracle::Bindings& b,
                    const oracle::OracleResult& r, const FailureFacts& f) {
  const std::vector<oracle::Cell>* cells = nullptr;
  for (const auto& [name, list] : f.wrongCells)
    if (name == cl.dim) cells = &list;
  if (!cells || cells->empty()) return false;
  size_t rank = cells->front().size();
  std::vector<std::string> vars = cl.cellVars;
  if (vars.size() != rank) {
    vars.clear();
    for (size_t k = 0; k < rank; ++k) vars.push_back("cell_" + std::to_string(k));
  }
  oracle::detail::PrepareContext ctx;
  ctx.ct = &ct;
  ctx.dims = &r.dims;
  ctx.bindings = &b;
  ctx.computed = &r;
  ctx.defs = oracle::detail::allDefinitions(ct);
  oracle::detail::Prepared p = oracle::detail::prepare(*cl.expr, ctx, vars);
  std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
  for (const oracle::Cell& c : *cells) {
    std::copy(c.begin(), c.end(), env.begin());
    // A cached reduction is keyed by the slots it reads: clear the caches between cells.
    std::fill(env.begin() + static_cast<long>(rank), env.end(), 0);
    if (!oracle::detail::evalBool(p.root, env.data())) return false;
  }
  return true;
}

bool compare(double a, const std::string& op, double b) {
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == ">=") return a >= b;
  if (op == "==") return a == b;
  return a != b;
}

}  // namespace

std::vector<std::string> matchSignatures(const sema::ContractInfo& ct, const oracle::Bindings& b,
                                         const oracle::OracleResult& r, const FailureFacts& f) {
  // A signature whose clauses all hold matches. Its specificity is the number of clauses
  // that say something about the case itself (a condition on the inputs, run-to-run
  // differences); when some match is specific, the generic ones (only `wrong cells`) are
  // dropped: a K-tail failure is also "some cell over its tolerance", but that names nothing.
  auto in = [](const std::vector<std::string>& list, const std::string& id) {
    return std::find(list.begin(), list.end(), id) != list.end();
  };
  // (name, rank): 3 a class's whose postconditions alone were violated, 2 specific, 1
  // generic of a class the case is for (or the contract's own), 0 generic of a class that
  // asks for every case.
  const bool classesOnly = !f.violatedBy.empty() && !in(f.violatedBy, "");
  std::vector<std::pair<std::string, int>> matched;
  for (const sema::SignatureInfo& sig : ct.signatures) {
    bool own = !sig.origin.fromClass || in(f.caseOrigins, sig.origin.id);
    if (!own && !in(f.everywhere, sig.origin.id)) continue;
    bool holds = !sig.clauses.empty();
    int specific = 0;
    // Several `wrong cells` clauses (one per output): the signature needs one that holds.
    bool hasCells = false, cellsHold = false;
    for (const sema::SignatureClause& cl : sig.clauses) {
      if (!holds) break;
      switch (cl.kind) {
        case Kind::WrongCells:
          hasCells = true;
          cellsHold = cellsHold || wrongCellsHold(cl, ct, b, r, f);
          break;
        case Kind::FailsWhen:
        case Kind::FailsOnlyWhen:
          holds = !f.allUnwritten && oracle::evalCondition(*cl.expr, ct, b, r);
          ++specific;
          break;
        case Kind::DiffersRunToRun:
          holds = f.differsRunToRun;
          ++specific;
          break;
        case Kind::ErrorGrows:
          holds = f.precisionFailure;
          break;
        case Kind::ErrorBound: {
          std::vector<oracle::Cell> none;
          oracle::detail::PrepareContext ctx;
          ctx.ct = &ct;
          ctx.dims = &r.dims;
          ctx.bindings = &b;
          ctx.computed = &r;
          ctx.defs = oracle::detail::allDefinitions(ct);
          oracle::detail::Prepared p = oracle::detail::prepare(*cl.expr, ctx, {});
          std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
          holds = compare(f.maxAbsError, cl.compareOp, oracle::detail::evalReal(p.root, env.data()));
          ++specific;
          break;
        }
      }
    }
    if (hasCells && !cellsHold) holds = false;
    if (holds)
      matched.emplace_back(sig.name, classesOnly && sig.origin.fromClass && in(f.violatedBy, sig.origin.id) ? 3
                                     : specific > 0                                                      ? 2
                                     : own                                                               ? 1
                                                                                                         : 0);
  }
  int best = 0;
  for (const auto& m : matched) best = std::max(best, m.second);
  std::vector<std::string> names;
  for (const auto& [name, rank] : matched)
    if (rank == best && !in(names, name)) names.push_back(name);
  return names;
}

std::vector<std::pair<std::string, bool>> evaluateConditions(const sema::ContractInfo& ct, const oracle::Bindings& b,
                                                             const oracle::OracleResult& r) {
  std::vector<std::pair<std::string, bool>> out;
  for (const sema::SignatureInfo& sig : ct.signatures)
    for (const sema::SignatureClause& cl : sig.clauses) {
      if (cl.kind != Kind::FailsWhen && cl.kind != Kind::FailsOnlyWhen) continue;
      try {
        out.emplace_back(sig.name, oracle::evalCondition(*cl.expr, ct, b, r));
      } catch (const std::exception&) {
        // A condition that cannot be evaluated on this case says nothing about it.
      }
      break;
    }
  return out;
}

}  // namespace kc::run
