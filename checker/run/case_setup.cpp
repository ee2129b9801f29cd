#include "checker/run/case_setup.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <thread>

#include "checker/run/structured_inputs.h"
#include "compiler/ir/eval.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/values/exact_inputs.h"
#include "stdlib/values/fill.h"

namespace kc::run {

namespace {

using numerics::DType;
using VK = sema::ProtocolValue::Kind;

using Dims = std::map<std::string, int64_t>;

std::string dimsText(const Dims& dims) {
  std::string t;
  for (const auto& [name, v] : dims) t += (t.empty() ? "" : ", ") + name + " = " + std::to_string(v);
  return t;
}

// The expression with every dim replaced by the case's value, folded to a number.
double evaluate(const sema::ProtocolValue& v, const Dims& dims) {
  ir::NodePtr n = v.expr->clone();
  std::function<void(ir::Node&)> bind = [&](ir::Node& x) {
    if (x.op == ir::Op::Dim) {
      auto it = dims.find(x.name);
      if (it == dims.end()) throw std::runtime_error("'" + v.str() + "': the case has no dim '" + x.name + "'");
      ir::Node value(ir::Op::ConstInt, ir::Type::Int, x.range);
      value.i = it->second;
      x = std::move(value);
      return;
    }
    for (auto& k : x.kids) bind(*k);
  };
  bind(*n);
  n = ir::fold(std::move(n));
  if (n->op == ir::Op::ConstInt) return static_cast<double>(n->i);
  if (n->op == ir::Op::ConstReal && std::isfinite(n->d)) return n->d;
  throw std::runtime_error("'" + v.str() + "' is not a finite number at " + dimsText(dims));
}

double number(const sema::ProtocolValue& v, const Dims& dims) {
  if (v.kind == VK::Expr) return evaluate(v, dims);
  double x = v.kind == VK::Int ? static_cast<double>(v.i) : v.d;
  return v.percent ? x / 100.0 : x;
}

// Positional argument k of a call, or `fallback`.
double arg(const sema::ProtocolValue& v, size_t k, double fallback, const Dims& dims) {
  size_t pos = 0;
  for (const auto& [name, values] : v.args) {
    if (!name.empty() || values.empty()) continue;
    if (pos++ == k) return number(values[0], dims);
  }
  return fallback;
}

// integers(LO, HI) as the generator draws it: bounds computed from dims must be whole numbers
// (C / 3 is not: floor(C / 3) is), and they can cross.
int64_t wholeBound(const sema::ProtocolValue& v, size_t k, int64_t fallback, const Dims& dims) {
  double x = arg(v, k, static_cast<double>(fallback), dims);
  if (x != std::floor(x) || std::fabs(x) > 0x1p62)
    throw std::runtime_error(v.str() + " at " + dimsText(dims) + ": bound " + std::to_string(k + 1) + " is " +
                             sema::shortestReal(x) + ", not an integer (floor(...) or ceil(...) makes one)");
  return static_cast<int64_t>(x);
}

values::IntUniform intRange(const sema::ProtocolValue& v, int64_t lo, int64_t hi, const Dims& dims) {
  values::IntUniform u{wholeBound(v, 0, lo, dims), wholeBound(v, 1, hi, dims)};
  if (u.lo > u.hi)
    throw std::runtime_error(v.str() + " is empty at " + dimsText(dims) + ": " + std::to_string(u.lo) + " > " +
                             std::to_string(u.hi));
  return u;
}

// The longest dim of the case: the reduction length an exact fill must stay exact over.
uint64_t longestDim(const CaseSetup& s) {
  int64_t k = 1;
  for (const auto& [name, v] : s.dims) k = std::max(k, v);
  return static_cast<uint64_t>(k);
}

values::FillSpec fillSpec(const sema::ProtocolValue& v, const ArgSpec& a, const CaseSetup& s) {
  uint64_t cols = a.shape.empty() ? 1 : static_cast<uint64_t>(a.shape.back());
  const std::string& n = v.name;
  const Dims& d = s.dims;
  if (v.kind == VK::Int || v.kind == VK::Real) return {values::Normal{number(v, d), 0.0}, 0.0};  // exactly the constant
  if (n == "normal") return {values::Normal{arg(v, 0, 0.0, d), arg(v, 1, 1.0, d)}, 0.0};
  if (n == "uniform") return {values::Uniform{arg(v, 0, 0.0, d), arg(v, 1, 1.0, d)}, 0.0};
  if (n == "integers") return {intRange(v, 0, 1, d), 0.0};
  if (n == "small_ints") return {intRange(v, -8, 8, d), 0.0};
  // Structured inputs draw normal(0, 1) cells, then rearrange them (structured_inputs.h).
  if (n == "triangular" || n == "sorted" || n == "symmetric" || n == "positive_definite") return {values::Normal{0.0, 1.0}, 0.0};
  if (n == "one_hot") return {values::Normal{0.0, 0.0}, 0.0};
  if (n == "valid_indices") {
    int64_t rows = wholeBound(v, 0, 1, d);  // valid_indices(V): 0..V - 1
    if (rows < 1)
      throw std::runtime_error(v.str() + " at " + dimsText(d) + ": no index is valid in a table of " + std::to_string(rows) + " rows");
    return {values::IntUniform{0, rows - 1}, 0.0};
  }
  if (n == "index_mod") return {values::IndexMod{values::indexPrime(a.dtype), 0.0}, 0.0};
  if (n == "exact") {
    DType acc = numerics::isFloat(a.dtype) ? DType::F32 : DType::I32;
    int64_t m = numerics::isFloat(a.dtype) || numerics::isInteger(a.dtype)
                    ? values::exactIntMagnitude(longestDim(s), a.dtype, acc)
                    : 1;
    // The exact result is stored in each float output's dtype: it must stay finite there
    // (an f16 c of a K-term dot product: K m^2 <= 65504).
    for (const ArgSpec& o : s.args)
      if (o.output && numerics::isFloat(o.dtype) && numerics::maxFinite(o.dtype) < 0x1p62) {
        auto cap = static_cast<int64_t>(std::sqrt(numerics::maxFinite(o.dtype) / static_cast<double>(longestDim(s))));
        m = std::min(m, cap);
      }
    return {values::ExactInt{std::max<int64_t>(1, m), 0.25}, 0.0};
  }
  if (n == "const_rows") return {values::ConstantRows{cols, 0.0, 1.0}, 0.0};
  if (n == "large_mean_rows") return {values::largeMeanRows(cols), 0.0};
  if (n == "cancel_rows")
    return {values::CancelRows{cols, static_cast<int64_t>(arg(v, 0, 1, d)), static_cast<int64_t>(arg(v, 1, 100, d))}, 0.0};
  if (n == "small_variance_rows") return {values::smallVarianceRows(cols), 0.0};
  throw std::runtime_error("no generator for the distribution '" + v.str() + "'");
}

// special(nan: 1%, inf: 0.5%): per kind, the value and its rate.
std::vector<std::pair<double, double>> specialRates(const sema::ProtocolValue& v, DType t, const Dims& dims) {
  std::vector<std::pair<double, double>> out;
  for (const auto& [kind, values] : v.args) {
    if (values.empty()) continue;
    double rate = number(values[0], dims);
    // neg_nan: a quiet NaN with its sign bit set; a kernel that tests the sign bit
    // (signbit(x) ? 0 : x) keeps a positive NaN but turns this one into 0.
    double value = kind == "nan"        ? std::numeric_limits<double>::quiet_NaN()
                   : kind == "neg_nan"  ? -std::numeric_limits<double>::quiet_NaN()
                   : kind == "inf"      ? std::numeric_limits<double>::infinity()
                   : kind == "neg_inf"  ? -std::numeric_limits<double>::infinity()
                   : kind == "zero"     ? 0.0
                   : kind == "neg_zero" ? -0.0
                   : kind == "subnormal" ? (numerics::isFloat(t) ? numerics::minSubnormal(t) : 0.0)
                                          : (numerics::isFloat(t) ? numerics::maxFinite(t) : 0.0);
    out.emplace_back(numerics::roundTo(t, value), rate);
  }
  return out;
}

void storeElement(const ArgSpec& a, uint8_t* storage, int64_t i, double v) {
  size_t eb = a.elementBytes();
  uint8_t* p = storage + static_cast<size_t>(i) * eb;
  if (numerics::isFloat(a.dtype)) {
    uint64_t bits = numerics::encode(a.dtype, v);
    std::memcpy(p, &bits, eb);  // little endian: the low bytes hold the pattern
  } else {
    int64_t x = static_cast<int64_t>(numerics::roundTo(a.dtype, v));
    std::memcpy(p, &x, eb);
  }
}

double loadElement(const ArgSpec& a, const uint8_t* storage, int64_t i) {
  size_t eb = a.elementBytes();
  const uint8_t* p = storage + static_cast<size_t>(i) * eb;
  uint64_t bits = 0;
  std::memcpy(&bits, p, eb);
  if (numerics::isFloat(a.dtype)) return numerics::decode(a.dtype == DType::TF32 ? DType::F32 : a.dtype, bits);
  if (a.dtype == DType::Bool || !numerics::isSigned(a.dtype)) return static_cast<double>(bits);
  int shift = 64 - 8 * static_cast<int>(eb);
  return static_cast<double>(static_cast<int64_t>(bits << shift) >> shift);
}

void computeStrides(ArgSpec& a, const plan::Layout& l) {
  size_t r = a.shape.size();
  a.strides.assign(r, 1);
  a.offset = 0;
  if (r == 0) {
    a.storage = 1;
    return;
  }
  std::vector<size_t> order(r);  // dims from innermost to outermost in memory
  for (size_t k = 0; k < r; ++k) order[k] = r - 1 - k;
  int64_t inner = 1;  // the innermost stride
  int64_t pad = 0;    // extra elements after each innermost row
  if (l.kind == "transposed" && r >= 2) std::swap(order[0], order[1]);
  if (l.kind == "padded") pad = l.n;
  if (l.kind == "step") inner = std::max<int64_t>(1, l.n);
  if (l.kind == "offset") a.offset = l.n;
  int64_t stride = inner;
  for (size_t k = 0; k < r; ++k) {
    size_t d = order[k];
    a.strides[d] = stride;
    int64_t extent = a.shape[d] * stride;
    if (k == 0) extent = a.shape[d] * inner + pad;
    stride = extent;
  }
  int64_t last = 0;
  for (size_t d = 0; d < r; ++d) last += (a.shape[d] - 1) * a.strides[d];
  a.storage = a.offset + last + 1 + (a.numel() == 0 ? -1 : 0);
}

}  // namespace

int64_t ArgSpec::numel() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

int64_t ArgSpec::storageIndex(const std::vector<int64_t>& idx) const {
  int64_t i = offset;
  for (size_t d = 0; d < idx.size(); ++d) i += idx[d] * strides[d];
  return i;
}

void setMarks(CaseSetup& s, uint64_t key) {
  s.marks = key;
  for (ArgSpec& a : s.args) a.marks = key;
}

CaseSetup setupCase(const sema::ContractInfo& ct, const plan::Plan& plan, const plan::Case& c) {
  if (!ct.kernel) throw std::runtime_error("contract " + ct.id + " has no kernel");
  CaseSetup s;
  ir::IntEnv env;
  for (const auto& [name, v] : c.dims) {
    s.dims[name] = v;
    env[name] = v;
  }
  for (const auto& [var, dt] : c.dtypes) {
    auto t = numerics::parseDType(dt);
    if (!t) throw std::runtime_error("unknown dtype '" + dt + "' in case " + c.id);
    s.dtypes[var] = *t;
  }
  for (const sema::TensorInfo& t : ct.kernel->tensors) {
    ArgSpec a;
    a.name = t.name;
    a.output = t.output;
    // A rank-0 input is a host value (docs/design.md §5); a rank-0 output is one cell in the
    // backend's buffers, as any output, so that the kernel's write comes back.
    a.scalar = t.shape.empty() && !t.output;
    std::string dt = t.dtypeIsVar ? "" : t.dtype;
    if (t.dtypeIsVar) {
      auto it = s.dtypes.find(t.dtype);
      if (it == s.dtypes.end()) throw std::runtime_error("case " + c.id + " binds no dtype to " + t.dtype);
      a.dtype = it->second;
    } else {
      auto parsed = numerics::parseDType(dt);
      if (!parsed) throw std::runtime_error("unknown dtype '" + dt + "'");
      a.dtype = *parsed;
    }
    if (a.dtype == DType::TF32) a.dtype = DType::F32;
    for (const auto& e : t.shape) {
      auto v = ir::evalInt(*e, env);
      if (!v) throw std::runtime_error("the shape of " + t.name + " does not evaluate in case " + c.id);
      a.shape.push_back(*v);
    }
    plan::Layout layout{"contiguous", "contiguous", 0, {}};
    const plan::TensorPlan* tp = nullptr;
    for (const auto& p : plan.tensors)
      if (p.name == t.name) tp = &p;
    for (const auto& [name, k] : c.layouts)
      if (name == t.name && tp && k < tp->layouts.size()) layout = tp->layouts[k];
    for (const auto& [name, k] : c.values)
      if (name == t.name && tp && k < tp->values.size()) a.values = tp->values[k].text;
    a.layout = layout.text;
    computeStrides(a, layout);
    s.args.push_back(std::move(a));
  }
  return s;
}

namespace {

const plan::Distribution* distributionOf(const plan::Plan& plan, const plan::Case& c, const std::string& tensor) {
  const plan::Distribution* dist = nullptr;
  for (const auto& tp : plan.tensors)
    if (tp.name == tensor)
      for (const auto& [name, k] : c.values)
        if (name == tensor && k < tp.values.size()) dist = &tp.values[k];
  if (!dist) throw std::runtime_error("case " + c.id + " gives no distribution for input " + tensor);
  return dist;
}

}  // namespace

values::FillSpec inputFill(const CaseSetup& s, const plan::Plan& plan, const plan::Case& c, size_t index) {
  const ArgSpec& a = s.args.at(index);
  const plan::Distribution* dist = distributionOf(plan, c, a.name);
  const sema::ProtocolValue& base = dist->special && dist->base ? *dist->base : dist->value;
  values::FillSpec spec = fillSpec(base, a, s);
  values::validate(spec, a.dtype);
  return spec;
}

bool hasSpecialValues(const plan::Plan& plan, const plan::Case& c, const std::string& input) {
  return distributionOf(plan, c, input)->special;
}

bool hasStructuredValues(const plan::Plan& plan, const plan::Case& c, const std::string& input) {
  const plan::Distribution* d = distributionOf(plan, c, input);
  return isStructured(d->special && d->base ? *d->base : d->value);
}

std::vector<uint8_t> makeStorage(const CaseSetup& s, const plan::Plan& plan, const plan::Case& c, size_t index,
                                 uint64_t seed, unsigned threadsAsked) {
  const ArgSpec& a = s.args.at(index);
  std::vector<uint8_t> poison = poisonOf(a);
  std::vector<uint8_t> out(a.storageBytes());
  for (size_t i = 0; i + poison.size() <= out.size(); i += poison.size()) std::memcpy(&out[i], poison.data(), poison.size());
  if (a.output) return out;

  const plan::Distribution* dist = distributionOf(plan, c, a.name);
  values::FillSpec spec = inputFill(s, plan, c, index);
  int64_t n = a.numel();
  std::vector<double> cells(static_cast<size_t>(n));
  // Every cell is a pure function of its index: the bytes do not depend on the thread count.
  const unsigned threads = threadsAsked ? threadsAsked : std::max(1u, std::thread::hardware_concurrency());
  values::fill(spec, a.dtype, seed, index, cells, threads);
  // A finite distribution draws finite values: one beyond T's range (uniform(-1e30, 1e30)
  // or rows of mean 1e6 in f16) saturates to T's largest finite value of its sign instead
  // of rounding to Inf, which the protocol did not ask for and a precondition may exclude.
  // Inf is asked for with special(inf: ...).
  if (numerics::isFloat(a.dtype)) {
    const double top = numerics::maxFinite(a.dtype);
    for (double& v : cells)
      if (std::isinf(v)) v = std::copysign(top, v);  // fill rounds to T: an overflowed draw
  }
  const sema::ProtocolValue& base = dist->special && dist->base ? *dist->base : dist->value;
  applyStructure(base, a.shape, a.dtype, seed, index, threads, cells);
  if (dist->special) {
    // Which cells turn special: a uniform draw per cell from the tensor's own stream
    // (tensor id offset by 2^32, so it is unrelated to the values).
    std::vector<double> u(static_cast<size_t>(n));
    values::fill({values::Uniform{0.0, 1.0}, 0.0}, DType::F64, seed, index + (1ull << 32), u, threads);
    auto rates = specialRates(dist->value, a.dtype, s.dims);
    std::vector<bool> taken(static_cast<size_t>(n), false);
    for (int64_t i = 0; i < n; ++i) {
      double acc = 0;
      for (const auto& [value, rate] : rates) {
        acc += rate;
        if (u[static_cast<size_t>(i)] < acc) {
          cells[static_cast<size_t>(i)] = value;
          taken[static_cast<size_t>(i)] = true;
          break;
        }
      }
    }
    // A small tensor at a low rate may draw no special value at all, and then the case
    // tests nothing: every kind asked for lands at least once, on the free cell with the
    // smallest draw.
    for (const auto& [value, rate] : rates) {
      if (rate <= 0) continue;
      bool present = false;
      // A NaN of the same sign counts (nan and neg_nan are two kinds).
      for (int64_t i = 0; i < n && !present; ++i) {
        const double c = cells[static_cast<size_t>(i)];
        present = taken[static_cast<size_t>(i)] && (std::isnan(value) ? std::isnan(c) : c == value) &&
                  std::signbit(c) == std::signbit(value);
      }
      if (present) continue;
      int64_t best = -1;
      for (int64_t i = 0; i < n; ++i)
        if (!taken[static_cast<size_t>(i)] && (best < 0 || u[static_cast<size_t>(i)] < u[static_cast<size_t>(best)])) best = i;
      if (best < 0) continue;
      cells[static_cast<size_t>(best)] = value;
      taken[static_cast<size_t>(best)] = true;
    }
  }
  // Row-major logical order to storage.
  forEachCell(a, threads, [&](int64_t flat, const std::vector<int64_t>&, int64_t at) { storeElement(a, out.data(), at, cells[static_cast<size_t>(flat)]); });
  return out;
}

oracle::Tensor decodeView(const ArgSpec& a, const uint8_t* storage, unsigned threads) {
  oracle::Tensor t(a.shape);
  forEachCell(a, threads ? threads : std::max(1u, std::thread::hardware_concurrency()),
              [&](int64_t flat, const std::vector<int64_t>&, int64_t at) { t.data[static_cast<size_t>(flat)] = loadElement(a, storage, at); });
  return t;
}

bool isPoison(const ArgSpec& a, const uint8_t* storage, int64_t i) {
  // Called per cell over whole outputs: the pattern is made once per dtype, key and thread.
  thread_local numerics::DType type = numerics::DType::F32;
  thread_local uint64_t marks = 0;
  thread_local std::vector<uint8_t> p = poisonPattern(numerics::DType::F32, 0);
  if (type != a.dtype || marks != a.marks) {
    p = poisonOf(a);
    type = a.dtype;
    marks = a.marks;
  }
  return std::memcmp(storage + static_cast<size_t>(i) * p.size(), p.data(), p.size()) == 0;
}

oracle::Bindings inputBindings(const CaseSetup& setup, const std::vector<std::vector<uint8_t>>& storage,
                               unsigned threads) {
  oracle::Bindings b;
  b.dims = setup.dims;
  b.dtypes = setup.dtypes;
  for (size_t a = 0; a < setup.args.size(); ++a)
    if (!setup.args[a].output) b.inputs[setup.args[a].name] = decodeView(setup.args[a], storage[a].data(), threads);
  return b;
}

}  // namespace kc::run
