#include "compiler/sema/compose.h"

#include <map>

namespace kc::sema {

namespace {

class Inliner {
 public:
  Inliner(const KernelInfo& callee, const std::vector<OpArgument>& args, const std::string& result, SourceRange at,
          DiagnosticEngine& diags)
      : callee_(callee), args_(args), result_(result), at_(at), diags_(diags) {}

  // Binds the op's dims and dtype variables from the arguments' shapes and dtypes.
  bool bind() {
    size_t k = 0;
    for (const auto& t : callee_.tensors) {
      if (t.output) continue;
      const OpArgument& a = args_[k++];
      if (t.rank() == 0) continue;
      if (a.extents.size() != t.rank()) {
        fail("argument " + std::to_string(k) + " of " + callee_.name + " has rank " + std::to_string(a.extents.size()) +
             ", but the op's input '" + t.name + "' has rank " + std::to_string(t.rank()));
        continue;
      }
      for (size_t d = 0; d < t.rank(); ++d) {
        const ir::Node& s = *t.shape[d];
        if (s.op != ir::Op::Dim) {
          fail("the op's input '" + t.name + "' has the shape " + ir::print(s) +
               " on axis " + std::to_string(d) + ": only dims written alone can be bound to an argument");
          continue;
        }
        auto [it, fresh] = dims_.emplace(s.name, Bound{a.extents[d], a.name});
        if (!fresh && ir::print(*it->second.extent) != ir::print(*a.extents[d]))
          fail("the op's dim " + s.name + " is " + ir::print(*it->second.extent) + " (from '" + it->second.from +
               "') and " + ir::print(*a.extents[d]) + " (from '" + a.name + "'): the arguments' shapes disagree");
      }
      if (t.dtypeIsVar && !a.dtype.empty()) dtypes_.emplace(t.dtype, std::make_pair(a.dtype, a.dtypeIsVar));
    }
    return ok_;
  }

  Definition definition(const Definition& d, bool isOutput) {
    Definition out;
    out.name = isOutput ? result_ : result_ + "." + d.name;
    out.indices = d.indices;
    for (const auto& e : d.extents) out.extents.push_back(e ? subst(*e) : nullptr);
    out.value = ir::fold(subst(*d.value));
    out.range = d.range;
    return out;
  }

  bool ok() const { return ok_; }

 private:
  struct Bound {
    const ir::Node* extent;
    std::string from;  // the argument it came from
  };

  void fail(const std::string& message) {
    diags_.report(DiagCode::BadOpApplication, at_, message);
    ok_ = false;
  }

  // The argument bound to the op's input `name`, or null.
  const OpArgument* argument(const std::string& name) const {
    size_t k = 0;
    for (const auto& t : callee_.tensors) {
      if (t.output) continue;
      if (t.name == name) return &args_[k];
      ++k;
    }
    return nullptr;
  }

  bool definesOutput(const std::string& name) const {
    const TensorInfo* t = callee_.tensor(name);
    return t && t->output;
  }

  ir::NodePtr copy(const ir::Node& n) {
    auto m = std::make_unique<ir::Node>(n.op, n.type, n.range);
    m->i = n.i;
    m->d = n.d;
    m->b = n.b;
    m->name = n.name;
    m->text = n.text;
    m->role = n.role;
    m->vars = n.vars;
    for (const auto& k : n.kids) m->kids.push_back(subst(*k));
    return m;
  }

  ir::NodePtr subst(const ir::Node& n) {
    switch (n.op) {
      case ir::Op::Dim: {
        auto it = dims_.find(n.name);
        if (it != dims_.end()) return it->second.extent->clone();
        fail("the op's dim " + n.name + " is in no input's shape, so no argument gives it a size");
        return n.clone();
      }
      case ir::Op::DTypeVar: {
        auto it = dtypes_.find(n.name);
        if (it == dtypes_.end()) {
          fail("the op's oracle uses its dtype " + n.name + ", and no argument that is a kernel input gives it one");
          return n.clone();
        }
        return ir::makeLeaf(it->second.second ? ir::Op::DTypeVar : ir::Op::DTypeConst, ir::Type::DType,
                            it->second.first, n.range);
      }
      case ir::Op::TensorRead:
      case ir::Op::TensorWhole: {
        if (n.role == ir::Role::Local) {
          auto m = copy(n);
          if (!definesOutput(n.name)) m->name = result_ + "." + n.name;
          else m->name = result_;
          return m;
        }
        const OpArgument* a = n.role == ir::Role::Input ? argument(n.name) : nullptr;
        if (!a) {
          fail("the op's oracle reads '" + n.name + "', which is not one of its inputs");
          return n.clone();
        }
        if (a->kind == OpArgument::Kind::Scalar) return a->value->clone();
        if (n.op == ir::Op::TensorWhole && a->role != ir::Role::Input) {
          fail("the op reads its input '" + n.name + "' whole (max, min or sum of every cell), so its argument '" +
               a->name + "' must be a kernel input, not a definition");
          return n.clone();
        }
        auto m = copy(n);
        m->name = a->name;
        m->role = a->role;
        return m;
      }
      default: return copy(n);
    }
  }

  const KernelInfo& callee_;
  const std::vector<OpArgument>& args_;
  std::string result_;
  SourceRange at_;
  DiagnosticEngine& diags_;
  std::map<std::string, Bound> dims_;
  std::map<std::string, std::pair<std::string, bool>> dtypes_;  // name, is a variable
  bool ok_ = true;
};

}  // namespace

bool inlineOracle(const KernelInfo& callee, const std::vector<Definition>& calleeOracle,
                  const std::vector<OpArgument>& args, const std::string& result, SourceRange at,
                  DiagnosticEngine& diags, std::vector<Definition>& out) {
  Inliner inliner(callee, args, result, at, diags);
  if (!inliner.bind()) return false;
  std::vector<Definition> defs;
  for (const auto& d : calleeOracle) {
    const TensorInfo* t = callee.tensor(d.name);
    defs.push_back(inliner.definition(d, t && t->output));
  }
  if (!inliner.ok()) return false;
  for (auto& d : defs) out.push_back(std::move(d));
  return true;
}

}  // namespace kc::sema
