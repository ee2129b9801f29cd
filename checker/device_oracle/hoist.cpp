#include "checker/device_oracle/hoist.h"

#include <algorithm>

namespace kc::device_oracle {

using ir::Op;
using ir::Type;

void freeVars(const ir::Node& n, std::vector<std::string>& bound, std::set<std::string>& out) {
  auto isBound = [&](const std::string& v) { return std::find(bound.begin(), bound.end(), v) != bound.end(); };
  if (n.op == Op::IndexVar) {
    if (!isBound(n.name)) out.insert(n.name);
    return;
  }
  if (n.op == Op::Reduce) {
    freeVars(*n.kids[0], bound, out);
    freeVars(*n.kids[1], bound, out);
    bound.push_back(n.vars[0]);
    freeVars(*n.kids[2], bound, out);
    bound.pop_back();
    return;
  }
  if (n.op == Op::Quantifier) {
    size_t pushed = 0;
    for (size_t k = 0; k < n.vars.size(); ++k) {
      freeVars(*n.kids[2 * k], bound, out);
      freeVars(*n.kids[2 * k + 1], bound, out);
      bound.push_back(n.vars[k]);
      ++pushed;
    }
    freeVars(*n.kids.back(), bound, out);
    bound.resize(bound.size() - pushed);
    return;
  }
  for (const auto& k : n.kids) freeVars(*k, bound, out);
}

void Hoister::walk(ir::NodePtr& n, const std::vector<std::string>& indices, const std::vector<const ir::Node*>& extents,
          std::vector<std::string>& binders) {
  if (n->op == Op::Reduce) {
    std::vector<std::string> none;
    std::set<std::string> fv;
    freeVars(*n, none, fv);
    bool inside = std::all_of(fv.begin(), fv.end(), [&](const std::string& v) {
      return std::find(indices.begin(), indices.end(), v) != indices.end() &&
             std::find(binders.begin(), binders.end(), v) == binders.end();
    });
    if (inside && fv.size() < indices.size()) {
      hoist(n, indices, extents, fv);
      return;
    }
  }
  size_t pushed = 0;
  for (size_t k = 0; k < n->kids.size(); ++k) {
    if (n->op == Op::Reduce && k == 2) { binders.push_back(n->vars[0]); ++pushed; }
    if (n->op == Op::Quantifier && k % 2 == 0 && k > 0 && k / 2 <= n->vars.size()) { binders.push_back(n->vars[k / 2 - 1]); ++pushed; }
    walk(n->kids[k], indices, extents, binders);
  }
  binders.resize(binders.size() - pushed);
}

void Hoister::hoist(ir::NodePtr& n, const std::vector<std::string>& indices, const std::vector<const ir::Node*>& extents,
           const std::set<std::string>& fv) {
  std::vector<std::string> sub;
  std::vector<const ir::Node*> subExtents;
  for (size_t k = 0; k < indices.size(); ++k)
    if (fv.count(indices[k])) {
      sub.push_back(indices[k]);
      subExtents.push_back(extents[k]);
    }
  std::string key = ir::printSExpr(*n);
  for (const auto& v : sub) key += " @" + v;
  size_t at;
  if (auto it = seen.find(key); it != seen.end()) {
    at = it->second;
  } else {
    ir::NodePtr value = n->clone();
    std::vector<std::string> binders;
    walk(value, sub, subExtents, binders);  // its own inner reductions first
    Computed c;
    c.name = "hoist." + std::to_string(next++);
    c.hoisted = true;
    for (const ir::Node* e : subExtents) c.extents.push_back(e->clone());
    out.push_back(std::move(c));
    values.push_back(std::move(value));
    at = out.size() - 1;
    seen.emplace(key, at);
  }
  std::vector<ir::NodePtr> kids;
  for (const auto& v : sub) kids.push_back(ir::makeLeaf(Op::IndexVar, Type::Int, v, n->range));
  ir::NodePtr read = ir::makeNode(Op::TensorRead, Type::Real, n->range, std::move(kids));
  read->name = out[at].name;
  read->role = ir::Role::Local;
  n = std::move(read);
}

}  // namespace kc::device_oracle
