#include "checker/run/signatures.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace kc::run {

namespace {

using Kind = ast::SignatureClauseKind;

// Whether E reads nothing but the cell's indices, dims and constants: a position pattern.
bool readsPositionOnly(const ir::Node& e) {
  if (e.op == ir::Op::TensorRead || e.op == ir::Op::TensorWhole || e.op == ir::Op::TensorStat) return false;
  for (const auto& k : e.kids)
    if (k && !readsPositionOnly(*k)) return false;
  return true;
}

// The number of the output's cells (shape) where P holds, and of all its cells: every cell up
// to 2^20 of them, else an evenly spaced sample of that many, scaled up.
std::pair<double, double> patternCells(const oracle::detail::Prepared& p, const std::vector<int64_t>& shape) {
  constexpr int64_t kSample = int64_t(1) << 20;
  double total = 1;
  for (int64_t n : shape) total *= static_cast<double>(std::max<int64_t>(n, 0));
  if (total <= 0) return {0, 0};
  int64_t cells = total > 9e18 ? INT64_MAX : static_cast<int64_t>(total);
  int64_t step = cells > kSample ? cells / kSample : 1, seen = 0, inside = 0;
  std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
  for (int64_t lin = 0; lin < cells && seen < kSample; lin += step, ++seen) {
    int64_t rest = lin;
    for (size_t k = shape.size(); k-- > 0;) {
      env[k] = rest % shape[k];
      rest /= shape[k];
    }
    std::fill(env.begin() + static_cast<long>(shape.size()), env.end(), 0);
    if (oracle::detail::evalBool(p.root, env.data())) ++inside;
  }
  return {total * static_cast<double>(inside) / static_cast<double>(seen), total};
}

// The chance that k cells drawn at random, without replacement, from `total` all fall among
// the `inside` ones: prod over i < k of (inside - i) / (total - i).
double chanceAllInside(double inside, double total, size_t k) {
  double logChance = 0;
  for (size_t i = 0; i < k; ++i) {
    double in = inside - static_cast<double>(i), all = total - static_cast<double>(i);
    if (in <= 0 || all <= 0) return 0;
    logChance += std::log(in / all);
    if (logChance < -50) break;  // far below any threshold
  }
  return std::exp(logChance);
}

// P at every wrong cell of the clause's output (and there is at least one). A position
// pattern (P reads only indices and dims) is evidence only when the wrong cells could not
// have fallen inside it by chance: k cells drawn at random from the output's would all land
// where P holds with a chance below 1/1000. One wrong cell among the channels o >= OG of a
// two-group conv is a coin toss, not a groups bug; 16 wrong cells that are exactly the 16 of
// 24 past the first group are not.
bool wrongCellsHold(const sema::SignatureClause& cl, const sema::ContractInfo& ct, const oracle::Bindings& b,
                    const oracle::OracleResult& r, const FailureFacts& f) {
  constexpr double kChance = 1e-3;
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
  auto out = r.oracle.find(cl.dim);
  if (!readsPositionOnly(*cl.expr) || out == r.oracle.end() || out->second.shape.size() != rank) return true;
  auto [inside, total] = patternCells(p, out->second.shape);
  return chanceAllInside(inside, total, cells->size()) < kChance;
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
                                         const oracle::OracleResult& r, const FailureFacts& f,
                                         std::vector<std::string>* outranked) {
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
  if (outranked)
    for (const auto& [name, rank] : matched)
      if (rank < best && !in(names, name) && !in(*outranked, name)) outranked->push_back(name);
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
