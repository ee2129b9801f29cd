// The f64 oracle evaluator: prepare (prepare.cpp) resolves names once, then the walker
// (walker.h) over the f64 domain (f64_domain.h) interprets each cell; contractions go to
// OpenBLAS first (contraction.cpp).
#include "checker/oracle/evaluator.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <thread>

#include "checker/oracle/contraction.h"
#include "checker/oracle/f64_domain.h"
#include "checker/oracle/walker.h"
#include "compiler/ir/eval.h"

namespace kc::oracle {

using ir::Op;

namespace detail {

double evalReal(const PNode& n, int64_t* env) {
  F64Domain d;
  return Walker<F64Domain>(d).real(n, env);
}

bool evalBool(const PNode& n, int64_t* env) {
  F64Domain d;
  return Walker<F64Domain>(d).truth(n, env);
}

}  // namespace detail

std::map<std::string, int64_t> resolveDims(const sema::ContractInfo& ct, const Bindings& b) {
  std::map<std::string, int64_t> dims = b.dims;
  if (!ct.kernel) return dims;
  auto infer = [&](const std::map<std::string, Tensor>& tensors) {
    for (const auto& t : ct.kernel->tensors) {
      auto it = tensors.find(t.name);
      if (it == tensors.end() || it->second.rank() != t.rank()) continue;
      for (size_t k = 0; k < t.shape.size(); ++k) {
        const ir::Node& e = *t.shape[k];
        if (e.op != Op::Dim) continue;
        auto [pos, inserted] = dims.emplace(e.name, it->second.shape[k]);
        if (!inserted && pos->second != it->second.shape[k])
          throw EvalError("dim '" + e.name + "' is " + std::to_string(pos->second) + " but '" + t.name +
                          "' has extent " + std::to_string(it->second.shape[k]));
      }
    }
  };
  infer(b.inputs);
  infer(b.outputs);
  return dims;
}

namespace {

using detail::PNode;

// Computes one definition into a tensor, the outer index split over threads; counts the
// contractions done by BLAS.
Tensor computeDefinition(const sema::Definition& def, const detail::PrepareContext& ctx, const EvalOptions& opts,
                         unsigned& contractions) {
  const unsigned threads = opts.threads;
  std::vector<int64_t> shape;
  ir::IntEnv intEnv(ctx.dims->begin(), ctx.dims->end());
  for (const auto& e : def.extents) {
    auto v = ir::evalInt(*e, intEnv);
    if (!v || *v < 0) throw EvalError("the extent of definition '" + def.name + "' cannot be evaluated");
    shape.push_back(*v);
  }
  detail::Prepared p = detail::prepare(*def.value, ctx, def.indices);
  std::deque<Tensor> products;  // contraction results the prepared tree reads
  if (opts.blas) contractions = detail::applyContractions(p.root, shape, products, threads);
  if (const Tensor* whole = products.empty() ? nullptr : detail::wholeTensorRead(p.root, shape)) {
    for (auto& t : products)
      if (&t == whole) return std::move(t);
    return *whole;
  }
  Tensor out(shape);
  const size_t rank = shape.size();
  if (rank == 0) {
    std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
    out.data[0] = detail::evalReal(p.root, env.data());
    return out;
  }
  if (out.numel() == 0) return out;
  const int64_t n0 = shape[0];
  const int64_t inner = out.numel() / n0;
  auto work = [&](int64_t begin, int64_t end) {
    detail::F64Domain domain;
    detail::Walker<detail::F64Domain> walker(domain);  // called directly: no frame per cell
    std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
    for (int64_t i0 = begin; i0 < end; ++i0) {
      for (size_t k = 1; k < rank; ++k) env[k] = 0;
      env[0] = i0;
      double* dst = out.data.data() + i0 * inner;
      for (int64_t c = 0; c < inner; ++c) {
        dst[c] = walker.real(p.root, env.data());
        for (size_t k = rank; k-- > 1;) {  // row-major odometer over the inner indices
          if (++env[k] < shape[k]) break;
          env[k] = 0;
        }
      }
    }
  };
  unsigned t = threads == 0 ? 1 : threads;
  if (static_cast<int64_t>(t) > n0) t = static_cast<unsigned>(n0);
  if (t <= 1) {
    work(0, n0);
    return out;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(t);
  for (unsigned w = 0; w < t; ++w) {
    int64_t begin = n0 * w / t, end = n0 * (w + 1) / t;
    pool.emplace_back([&, w, begin, end] {
      try {
        work(begin, end);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace

OracleResult evalOracle(const sema::ContractInfo& ct, const Bindings& b, const EvalOptions& opts) {
  OracleResult r;
  r.dims = resolveDims(ct, b);
  detail::PrepareContext ctx;
  ctx.ct = &ct;
  ctx.dims = &r.dims;
  ctx.bindings = &b;
  ctx.computed = &r;
  ctx.defs = detail::allDefinitions(ct);
  for (size_t k = 0; k < ctx.defs.size(); ++k) {
    ctx.visible = k;
    const auto& d = ctx.defs[k];
    unsigned contractions = 0;
    Tensor t = computeDefinition(*d.def, ctx, opts, contractions);
    (d.tolerance ? r.tolerance : r.oracle)[d.def->name] = std::move(t);
    if (contractions) r.contractions[d.def->name] += contractions;
  }
  return r;
}

bool evalCondition(const ir::Node& cond, const sema::ContractInfo& ct, const Bindings& b, const OracleResult& r,
                   std::vector<Cell>* failing, size_t maxFailing, unsigned threads) {
  detail::PrepareContext ctx;
  ctx.ct = &ct;
  ctx.dims = &r.dims;
  ctx.bindings = &b;
  ctx.computed = &r;
  ctx.defs = detail::allDefinitions(ct);
  detail::Prepared p = detail::prepare(cond, ctx, {});
  std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
  const PNode& root = p.root;
  if (root.op != Op::Quantifier || !root.b || (!failing && threads <= 1)) return detail::evalBool(root, env.data());
  // A forall: enumerate its variables (the outermost split over threads, in contiguous
  // chunks, so the failing tuples merge back in row-major order) and record where the body
  // fails; without a list, stop at the first failure.
  const size_t nv = (root.kids.size() - 1) / 2;
  const int64_t lo = detail::evalInt(root.kids[0], env.data()), hi = detail::evalInt(root.kids[1], env.data());
  if (hi < lo) return true;
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(std::max(1u, threads), span));
  std::vector<std::vector<Cell>> parts(n);
  std::vector<char> holds(n, 1);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<bool> stop{false};
  auto work = [&](unsigned t) {
    detail::F64Domain domain;
    detail::Walker<detail::F64Domain> walker(domain);
    try {
      std::vector<int64_t> e = env;
      const int64_t first = lo + static_cast<int64_t>(span * t / n), last = lo + static_cast<int64_t>(span * (t + 1) / n) - 1;
      auto rec = [&](auto&& self, size_t level) -> void {
        if (level == nv) {
          if (!walker.truth(root.kids.back(), e.data())) {
            holds[t] = 0;
            if (!failing) stop = true;
            else if (parts[t].size() < maxFailing)
              parts[t].emplace_back(e.begin() + root.slot, e.begin() + root.slot + static_cast<long>(nv));
          }
          return;
        }
        int64_t a = level == 0 ? first : detail::evalInt(root.kids[2 * level], e.data());
        int64_t z = level == 0 ? last : detail::evalInt(root.kids[2 * level + 1], e.data());
        for (int64_t i = a; i <= z && !stop; ++i) {
          e[static_cast<size_t>(root.slot) + level] = i;
          self(self, level + 1);
        }
      };
      rec(rec, 0);
    } catch (...) {
      errors[t] = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const auto& err : errors)
    if (err) std::rethrow_exception(err);
  for (const auto& part : parts)
    for (const Cell& c : part)
      if (failing && failing->size() < maxFailing) failing->push_back(c);
  return std::all_of(holds.begin(), holds.end(), [](char h) { return h != 0; });
}

}  // namespace kc::oracle
