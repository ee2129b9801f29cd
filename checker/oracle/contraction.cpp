// Contractions at BLAS speed: recognise sum(k, x[..] * y[..]) in a prepared definition and
// compute it with cblas_dgemm (see contraction.h).
#include "checker/oracle/contraction.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace kc::oracle::detail {

using ir::Op;
using ir::Type;

namespace {

// A contraction's result holds at most this many cells beyond the definition's own: a
// nested reduction could otherwise ask for far more than the interpreter would ever visit.
constexpr int64_t kMaxExtraCells = int64_t{1} << 26;

// Guards OpenBLAS's process-wide thread count while contractions set it to 1.
std::mutex blasMutex;

const std::string kResultName = "a contraction's BLAS result";

// The value of an Int subtree that reads no index variable, tensor or reduction.
std::optional<int64_t> constantInt(const PNode& n) {
  bool constant = true;
  auto check = [&](auto&& self, const PNode& p) -> void {
    switch (p.op) {
      case Op::ConstInt: case Op::Dim: break;
      case Op::Neg: case Op::Add: case Op::Sub: case Op::Mul: case Op::Mod: case Op::Pow: case Op::Abs:
      case Op::Div:  // in an Int subtree: floor division
        for (const auto& k : p.kids) self(self, k);
        break;
      default: constant = false;
    }
  };
  if (n.type != Type::Int) return std::nullopt;
  check(check, n);
  if (!constant) return std::nullopt;
  try {
    int64_t unused = 0;
    return evalInt(n, &unused);
  } catch (const EvalError&) {
    return std::nullopt;  // overflow: the interpreter reports it
  }
}

// One factor of the product: a read indexed by plain variables, or its absolute value.
struct Operand {
  const Tensor* tensor = nullptr;
  bool abs = false;
  std::vector<int> slots;  // per dimension
};

bool readOperand(const PNode& n, bool abs, Operand& out) {
  if (n.op == Op::Abs && n.type == Type::Real) return readOperand(n.kids[0], true, out);
  if (n.op != Op::TensorRead || n.type != Type::Real || !n.tensor) return false;
  for (const auto& k : n.kids)
    if (k.op != Op::IndexVar) return false;
  out.tensor = n.tensor;
  out.abs = abs;
  for (const auto& k : n.kids) out.slots.push_back(k.slot);
  return true;
}

// x * y, |x| * |y| or |x * y| (the same numbers: rounding is symmetric in sign).
bool product(const PNode& n, bool abs, Operand& x, Operand& y) {
  if (n.op == Op::Abs && n.type == Type::Real) return product(n.kids[0], true, x, y);
  if (n.op != Op::Mul || n.type != Type::Real) return false;
  return readOperand(n.kids[0], abs, x) && readOperand(n.kids[1], abs, y);
}

// An index variable of the contraction: its range lo..lo+n-1 and its stride in each operand
// (the sum of the strides of the dimensions it indexes).
struct Var {
  int slot = -1;
  int64_t lo = 0, n = 0;
  int64_t coef[2] = {0, 0};
  bool in[2] = {false, false};
};

// Copies an operand's cells into a dense row-major buffer over `order` (variable numbers);
// false when a cell is NaN or infinite (the interpreter then keeps its exact semantics).
bool pack(const Operand& op, int which, const std::vector<Var>& vars, const std::vector<size_t>& order, double* out) {
  const double* src = op.tensor->data.data();
  int64_t base = 0;
  for (const auto& v : vars) base += v.lo * v.coef[which];
  std::vector<int64_t> idx(order.size(), 0);
  const size_t last = order.size() - 1;
  const int64_t inner = vars[order[last]].n, step = vars[order[last]].coef[which];
  bool finite = true;
  for (;;) {
    int64_t off = base;
    for (size_t d = 0; d < last; ++d) off += idx[d] * vars[order[d]].coef[which];
    if (op.abs)
      for (int64_t i = 0; i < inner; ++i) *out++ = std::fabs(src[off + i * step]);
    else
      for (int64_t i = 0; i < inner; ++i) *out++ = src[off + i * step];
    for (int64_t i = -inner; i < 0; ++i) finite &= std::isfinite(out[i]);
    size_t d = last;
    while (d-- > 0) {
      if (++idx[d] < vars[order[d]].n) break;
      idx[d] = 0;
    }
    if (d == SIZE_MAX) break;
  }
  return finite;
}

struct Rewriter {
  std::vector<std::optional<std::pair<int64_t, int64_t>>> ranges;  // by slot: lo, hi when constant
  std::deque<Tensor>& store;
  int blasThreads;
  int64_t definitionCells;
  unsigned count = 0;

  void setRange(int slot, std::optional<std::pair<int64_t, int64_t>> r) {
    if (ranges.size() <= static_cast<size_t>(slot)) ranges.resize(static_cast<size_t>(slot) + 1);
    ranges[static_cast<size_t>(slot)] = r;
  }
  const std::optional<std::pair<int64_t, int64_t>>* range(int slot) const {
    const size_t s = static_cast<size_t>(slot);
    return s < ranges.size() && ranges[s] ? &ranges[s] : nullptr;
  }

  void walk(PNode& n) {
    if (n.op == Op::Reduce) {
      auto lo = constantInt(n.kids[0]), hi = constantInt(n.kids[1]);
      if (lo && hi) setRange(n.slot, std::make_pair(*lo, *hi));
      if (lo && hi && n.fn == Fn::Sum && n.type == Type::Real && contract(n)) {
        ++count;
        return;
      }
    }
    for (auto& k : n.kids) walk(k);
  }

  // Replaces the reduction `n` by a read of its values over its free variables' ranges.
  bool contract(PNode& n) {
    Operand x, y;
    if (!product(n.kids[2], false, x, y)) return false;
    std::vector<Var> vars;  // vars[0] is the reduction variable
    const auto [klo, khi] = **range(n.slot);
    vars.push_back({n.slot, klo, khi >= klo ? khi - klo + 1 : 0, {0, 0}, {false, false}});
    const Operand* ops[2] = {&x, &y};
    for (int w = 0; w < 2; ++w) {
      const Tensor& t = *ops[w]->tensor;
      for (size_t d = 0; d < ops[w]->slots.size(); ++d) {
        int s = ops[w]->slots[d];
        size_t v = 0;
        while (v < vars.size() && vars[v].slot != s) ++v;
        if (v == vars.size()) {
          auto r = range(s);
          if (!r || (*r)->second < (*r)->first) return false;  // unknown or empty: nothing to gain
          vars.push_back({s, (*r)->first, (*r)->second - (*r)->first + 1, {0, 0}, {false, false}});
        }
        Var& var = vars[v];
        // Every read must lie inside the tensor; otherwise the interpreter raises the error.
        if (var.n > 0 && (var.lo < 0 || var.lo + var.n > t.shape[d])) return false;
        var.coef[w] += t.strides[d];
        var.in[w] = true;
      }
    }
    if (!vars[0].in[0] || !vars[0].in[1]) return false;  // not a product over k of both
    // Batch variables index both operands, row variables only x, column variables only y.
    std::vector<size_t> batch, rows, cols;
    for (size_t v = 1; v < vars.size(); ++v)
      (vars[v].in[0] && vars[v].in[1] ? batch : vars[v].in[0] ? rows : cols).push_back(v);
    int64_t B = 1, M = 1, N = 1, K = vars[0].n;
    std::vector<int64_t> shape;
    for (const auto* group : {&batch, &rows, &cols})
      for (size_t v : *group) {
        int64_t& e = group == &batch ? B : group == &rows ? M : N;
        if (__builtin_mul_overflow(e, vars[v].n, &e)) return false;
        shape.push_back(vars[v].n);
      }
    int64_t cells = 0;
    if (__builtin_mul_overflow(B, M, &cells) || __builtin_mul_overflow(cells, N, &cells) ||
        cells > definitionCells + kMaxExtraCells)
      return false;
    if (M > INT_MAX || N > INT_MAX || K > INT_MAX) return false;  // cblas takes int sizes

    Tensor result(shape);
    if (K > 0) {
      std::vector<size_t> orderX = batch, orderY = batch;
      orderX.insert(orderX.end(), rows.begin(), rows.end());
      orderX.push_back(0);
      orderY.push_back(0);
      orderY.insert(orderY.end(), cols.begin(), cols.end());
      std::vector<double> px(static_cast<size_t>(B * M * K)), py(static_cast<size_t>(B * K * N));
      if (!pack(x, 0, vars, orderX, px.data()) || !pack(y, 1, vars, orderY, py.data())) return false;
      gemm(B, M, N, K, px.data(), py.data(), result.data.data());
    }
    store.push_back(std::move(result));

    PNode read;
    read.op = Op::TensorRead;
    read.type = Type::Real;
    read.tensor = &store.back();
    read.name = &kResultName;
    for (const auto* group : {&batch, &rows, &cols})
      for (size_t v : *group) {
        PNode var;
        var.op = Op::IndexVar;
        var.type = Type::Int;
        var.slot = vars[v].slot;
        if (vars[v].lo == 0) {
          read.kids.push_back(std::move(var));
          continue;
        }
        PNode lo, sub;
        lo.op = Op::ConstInt;
        lo.i = vars[v].lo;
        sub.op = Op::Sub;
        sub.type = Type::Int;
        sub.kids.push_back(std::move(var));
        sub.kids.push_back(std::move(lo));
        read.kids.push_back(std::move(sub));
      }
    n = std::move(read);
    return true;
  }

  // C[b] = X[b] Y[b] for each batch, row-major. OpenBLAS's own threading splits C by its
  // thread count, and a cell at the edge of a split takes another kernel and sums in another
  // order (measured: 1 and 2 threads differ in the last bits). So C is cut into blocks of
  // kBlock rows or columns (whichever of M and N is larger), fixed by the sizes alone, each
  // computed by a single-threaded dgemm; `blasThreads` threads share the blocks. A cell's
  // value then never depends on the thread count.
  void gemm(int64_t B, int64_t M, int64_t N, int64_t K, const double* x, const double* y, double* c) const {
    constexpr int64_t kBlock = 512;
    const bool byRows = M >= N;
    const int64_t perBatch = ((byRows ? M : N) + kBlock - 1) / kBlock, items = B * perBatch;
    std::atomic<int64_t> next{0};
    auto work = [&] {
      for (int64_t item; (item = next.fetch_add(1)) < items;) {
        const int64_t b = item / perBatch, lo = item % perBatch * kBlock;
        const int64_t rows = byRows ? std::min(kBlock, M - lo) : M, cols = byRows ? N : std::min(kBlock, N - lo);
        const double* xb = x + b * M * K + (byRows ? lo * K : 0);
        const double* yb = y + b * K * N + (byRows ? 0 : lo);
        double* cb = c + b * M * N + (byRows ? lo * N : lo);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(cols),
                    static_cast<int>(K), 1.0, xb, static_cast<int>(K), yb, static_cast<int>(N), 0.0, cb,
                    static_cast<int>(N));
      }
    };
    std::lock_guard<std::mutex> lock(blasMutex);  // OpenBLAS's thread count is process-wide
    const int before = openblas_get_num_threads();
    openblas_set_num_threads(1);
    std::vector<std::thread> pool;
    for (int64_t t = 1; t < std::min<int64_t>(blasThreads, items); ++t) {
      try {
        pool.emplace_back(work);
      } catch (const std::system_error&) {
        break;  // fewer threads: the same blocks, the same values
      }
    }
    work();
    for (auto& t : pool) t.join();
    openblas_set_num_threads(before);
  }
};

}  // namespace

unsigned applyContractions(PNode& root, const std::vector<int64_t>& shape, std::deque<Tensor>& store,
                           unsigned threads) {
  int64_t cells = 1;
  for (int64_t e : shape) cells = __builtin_mul_overflow(cells, e, &cells) ? INT64_MAX / 2 : cells;
  Rewriter rw{{}, store, static_cast<int>(threads == 0 ? 1 : threads), cells};
  for (size_t k = 0; k < shape.size(); ++k)
    if (shape[k] > 0) rw.setRange(static_cast<int>(k), std::make_pair(int64_t{0}, shape[k] - 1));
  rw.walk(root);
  return rw.count;
}

const Tensor* wholeTensorRead(const PNode& root, const std::vector<int64_t>& shape) {
  if (root.op != Op::TensorRead || !root.tensor || root.tensor->shape != shape) return nullptr;
  for (size_t k = 0; k < root.kids.size(); ++k)
    if (root.kids[k].op != Op::IndexVar || root.kids[k].slot != static_cast<int>(k)) return nullptr;
  return root.tensor;
}

}  // namespace kc::oracle::detail
