#include "checker/diagnose/probes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "backends/perturbations.h"
#include "compiler/ir/eval.h"

namespace kc::diagnose {

namespace {

constexpr uint64_t kOtherMarks = 0x9e3779b97f4a7c15ull;  // another run's marks: new canaries and gap bytes


std::string fmtNum(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string dimsText(const plan::Case& c) {
  std::string s;
  for (const auto& [d, v] : c.dims) s += (s.empty() ? "" : " ") + d + "=" + std::to_string(v);
  return s;
}

plan::Case withDim(const plan::Case& c, const std::string& dim, int64_t v) {
  plan::Case out = c;
  for (auto& [d, x] : out.dims)
    if (d == dim) x = v;
  return out;
}

int64_t roundUp(int64_t v, int64_t t) { return (v + t - 1) / t * t; }

bool allowedValue(const plan::DimPlan* d, int64_t v) {
  if (!d || v < d->lo || v > d->hi) return false;
  return d->allowed.empty() || std::find(d->allowed.begin(), d->allowed.end(), v) != d->allowed.end();
}

std::vector<std::vector<int64_t>> outputShapes(const VariantRun& v) {
  std::vector<std::vector<int64_t>> out;
  for (const auto& a : v.setup.args)
    if (a.output) out.push_back(a.shape);
  return out;
}

// The case with every float input in rows padded by 64 elements whose gaps hold a finite
// value of the input's own range: its largest in one run, its smallest in the other.
bool readsRowGaps(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  plan::Case v = c;
  bool padded = false;
  for (auto& [name, k] : v.layouts) {
    plan::TensorPlan* t = ctx.plan.tensor(name);
    if (!t || t->output || t->scalar) continue;
    k = layoutIndex(*t, {"padded(64)", "padded", 64, {}});
    padded = true;
  }
  std::string at = "#" + std::to_string(c.number) + " with its inputs in rows padded by 64, the gaps holding the view's largest value, then its smallest: ";
  if (!padded) return false;
  InputEdit zero, one;
  zero.gap = InputEdit::Gap::High;
  one.gap = InputEdit::Gap::Low;
  VariantRun a = runVariant(ctx, v, seed, marks, zero);
  VariantRun b = runVariant(ctx, v, seed, marks, one);
  if (!a.ran || !b.ran) {
    log.push_back(at + "did not run (" + (a.ran ? b.why : a.why) + ")");
    return false;
  }
  if (a.setup.args.size() != b.setup.args.size() || sameOutputs(a, b)) {
    log.push_back(at + "the outputs did not change");
    return false;
  }
  VariantRun again = runVariant(ctx, v, seed, marks, zero);
  if (!again.ran || !sameOutputs(a, again)) {
    log.push_back(at + "the outputs changed, but so do two identical runs");
    return false;
  }
  log.push_back(at + "the outputs changed; the same run repeated gives the same bytes");
  return true;
}

}  // namespace

bool racesItsStream(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  std::string at = "#" + std::to_string(c.number) + " on a busy device (noise before the launch), read once its stream is done, then once the whole device is: ";
  // Both on a busy device: with every SM full at the launch, work on a stream of the
  // kernel's own is still queued when its given stream is done (on an idle GPU a short one
  // wins the race and shows nothing). A backend without noise runs them unperturbed.
  VariantRun stream = runVariant(ctx, c, seed, marks, {}, false, backend::perturb::kNoise);
  if (!stream.ran) {
    log.push_back(at + "did not run (" + stream.why + ")");
    return false;
  }
  if (!failed(stream)) {
    log.push_back(at + "passes the first way (the failure needs repeats or a perturbation)");
    return false;
  }
  VariantRun device = runVariant(ctx, c, seed, marks, {}, true, backend::perturb::kNoise);
  if (!device.ran) {
    log.push_back(at + "fails, then did not run (" + device.why + ")");
    return false;
  }
  if (!passed(device)) {
    log.push_back(at + "fails both ways");
    return false;
  }
  log.push_back(at + "fails, then passes");
  return true;
}

bool readsOutsideViews(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  VariantRun a = runVariant(ctx, c, seed, marks);
  VariantRun b = runVariant(ctx, c, seed, marks ^ kOtherMarks);
  if (!a.ran || !b.ran) {
    log.push_back("#" + std::to_string(c.number) + " with other bytes outside the views: did not run (" + (a.ran ? b.why : a.why) + ")");
    return false;
  }
  if (sameOutputs(a, b)) {
    log.push_back("#" + std::to_string(c.number) + " with other bytes outside the views (canaries, padding): the outputs did not change");
    return readsRowGaps(ctx, c, seed, marks, log);
  }
  VariantRun again = runVariant(ctx, c, seed, marks);
  if (!again.ran || !sameOutputs(a, again)) {
    log.push_back("#" + std::to_string(c.number) + " with other bytes outside the views: the outputs changed, but so do two identical runs");
    return false;
  }
  log.push_back("#" + std::to_string(c.number) + " with other bytes outside the views (canaries, padding): the outputs changed; "
                "the same run repeated gives the same bytes");
  return true;
}

namespace {

// The case as it is, and with other inputs: each input's first distribution (normal(0, 1)
// mostly), the next seed.
std::pair<VariantRun, VariantRun> withOtherInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks) {
  VariantRun a = runVariant(ctx, c, seed, marks);
  plan::Case other = c;
  for (auto& [name, k] : other.values) k = 0;
  return {std::move(a), runVariant(ctx, other, seed + 1, marks)};
}

}  // namespace

bool ignoresInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  // A result the inputs only clamp (an all-negative amax started at 0) changes with other
  // inputs; one never computed does not.
  auto [a, b] = withOtherInputs(ctx, c, seed, marks);
  std::string at = "#" + std::to_string(c.number) + " with other inputs (seed + 1, each input's first distribution): ";
  if (!a.ran || !b.ran) {
    log.push_back(at + "did not run (" + (a.ran ? b.why : a.why) + ")");
    return false;
  }
  if (!inputsDiffer(a, b)) {
    log.push_back(at + "the inputs are the same (nothing shown)");
    return false;
  }
  int64_t written = 0;
  if (!failed(a) || !sameOutputs(a, b, &written)) {
    log.push_back(at + "the outputs changed with them");
    return false;
  }
  if (written == 0) {
    log.push_back(at + "no output cell was written in either run");
    return false;
  }
  // The exact outputs must change with the inputs (a softmax of one column is 1 whatever x).
  auto expected = [](const VariantRun& v) {
    std::vector<double> e;
    for (const auto& w : v.result.worst) e.push_back(w.expected);
    return e;
  };
  if (!failed(b) || expected(a) == expected(b)) {
    log.push_back(at + "the outputs stayed the same, but so did the exact ones (nothing shown)");
    return false;
  }
  log.push_back(at + "the outputs stayed bit for bit the same");
  return true;
}

bool computesOn(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  auto [a, b] = withOtherInputs(ctx, c, seed, marks);
  std::string at = "#" + std::to_string(c.number) + " (it passes) with other inputs (seed + 1, each input's first distribution): ";
  if (!passed(a) || !passed(b)) {
    log.push_back(at + (a.ran && b.ran ? "it does not pass both times" : "did not run (" + (a.ran ? b.why : a.why) + ")"));
    return false;
  }
  if (!inputsDiffer(a, b) || sameOutputs(a, b, nullptr)) {
    log.push_back(at + "passes, its outputs the same (nothing shown)");
    return false;
  }
  log.push_back(at + "passes again, its outputs changed with them");
  return true;
}

std::optional<TailFinding> failsOnRemainder(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                            std::vector<std::string>& log) {
  constexpr int64_t kWidest = 64;
  VariantRun base;  // the case itself, for its output shapes (run once, when some dim is probed)
  for (const auto& [dim, v] : c.dims) {
    const plan::DimPlan* dp = ctx.plan.dim(dim);
    // A dim of 1 too (a K below the tile: no term is summed), though the case chooser does not
    // prefer such a case for it (tailProbeable).
    if (v < 1 || v > 65536 || v % kWidest == 0 || !plan::isExtent(*ctx.contract, dim)) continue;  // a tail is an extent's
    int64_t aligned = roundUp(v, kWidest);
    if (!allowedValue(dp, aligned) || !allowedValue(dp, aligned + 1)) continue;
    if (!dimsMayMeetPre(ctx, withDim(c, dim, aligned)) || !dimsMayMeetPre(ctx, withDim(c, dim, aligned + 1))) continue;
    VariantRun up = runVariant(ctx, withDim(c, dim, aligned), seed, marks);
    if (!passed(up)) {
      log.push_back("#" + std::to_string(c.number) + " (" + dimsText(c) + ") with " + dim + "=" + std::to_string(aligned) + " " +
                    (up.ran ? (up.result.verdict == report::Verdict::Fail ? "fails too" : "gives no verdict") : "did not run (" + up.why + ")"));
      continue;
    }
    VariantRun past = runVariant(ctx, withDim(c, dim, aligned + 1), seed, marks);
    std::string shown = "#" + std::to_string(c.number) + " (" + dimsText(c) + ") with " + dim + "=" + std::to_string(aligned) +
                        " passes, with " + dim + "=" + std::to_string(aligned + 1) + " ";
    if (!failed(past)) {
      log.push_back(shown + (past.ran ? "passes too" : "did not run (" + past.why + ")"));
      continue;
    }
    // The tile: the smallest multiple that passes.
    TailFinding f;
    f.dim = dim;
    f.tile = kWidest;
    for (int64_t t : {8, 16, 32}) {
      int64_t r = roundUp(v, t);
      if (r >= aligned || !allowedValue(dp, r)) continue;
      VariantRun tv = runVariant(ctx, withDim(c, dim, r), seed, marks);
      if (passed(tv)) {
        f.tile = t;
        break;
      }
    }
    if (!base.ran) base = runVariant(ctx, c, seed, marks);
    if (base.ran) {
      auto before = outputShapes(base), after = outputShapes(up);
      for (size_t o = 0; o < before.size() && o < after.size() && !f.inOutput; ++o)
        for (size_t k = 0; k < before[o].size() && k < after[o].size(); ++k)
          if (before[o][k] != after[o][k]) {
            f.inOutput = true;
            f.axis = k;
            break;
          }
    }
    f.evidence = "fails when " + dim + " % " + std::to_string(f.tile) + " != 0: " + dim + "=" + std::to_string(v) + " and " +
                 dim + "=" + std::to_string(aligned + 1) + " fail, " + dim + "=" + std::to_string(aligned) + " passes" +
                 (f.tile < kWidest ? " and so does " + dim + "=" + std::to_string(roundUp(v, f.tile)) : std::string());
    log.push_back(shown + "fails: " + f.evidence);
    return f;
  }
  return std::nullopt;
}

std::optional<LimitFinding> failsPastGridLimit(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                               std::vector<std::string>& log) {
  constexpr int64_t kGridLimit = 65535;
  for (const auto& [dim, v] : c.dims) {
    const plan::DimPlan* dp = ctx.plan.dim(dim);
    // Up to 2^24: a dim that large with the others of the case stays cheap to re-run.
    if (v <= kGridLimit || v > (int64_t{1} << 24) || !allowedValue(dp, kGridLimit) || !allowedValue(dp, kGridLimit + 1)) continue;
    std::string shown = "#" + std::to_string(c.number) + " (" + dimsText(c) + ") with " + dim + "=" + std::to_string(kGridLimit) + " ";
    VariantRun below = runVariant(ctx, withDim(c, dim, kGridLimit), seed, marks);
    if (!passed(below)) {
      log.push_back(shown + (below.ran ? (below.result.verdict == report::Verdict::Fail ? "fails too" : "gives no verdict") : "did not run (" + below.why + ")"));
      continue;
    }
    VariantRun past = runVariant(ctx, withDim(c, dim, kGridLimit + 1), seed, marks);
    shown += "passes, with " + dim + "=" + std::to_string(kGridLimit + 1) + " ";
    if (!failed(past)) {
      log.push_back(shown + (past.ran ? "passes too" : "did not run (" + past.why + ")"));
      continue;
    }
    LimitFinding f;
    f.dim = dim;
    f.evidence = "fails when " + dim + " > " + std::to_string(kGridLimit) + ": " + dim + "=" + std::to_string(v) +
                 (v == kGridLimit + 1 ? "" : " and " + dim + "=" + std::to_string(kGridLimit + 1)) + " fail, " + dim + "=" +
                 std::to_string(kGridLimit) + " passes (the most blocks a launch has in grid y or z)";
    log.push_back(shown + "fails: " + f.evidence);
    return f;
  }
  return std::nullopt;
}

namespace {

// Whether a value of the oracle is exact on small integers: sums, differences, products,
// maxima (no division, no root, no transcendental), through the oracle's own definitions.
bool exactOnIntegers(const ir::Node& n, const sema::ContractInfo& ct, int depth = 0) {
  if (depth > 16 || n.op == ir::Op::Div || n.op == ir::Op::RoundTo) return false;
  // x^2: a whole power is a product.
  if (n.op == ir::Op::Pow && (n.kids.size() != 2 || !n.kids[1] || n.kids[1]->op != ir::Op::ConstInt || n.kids[1]->i < 0)) return false;
  if (n.op == ir::Op::Call) {
    const char* exact[] = {"fmax", "fmin", "isnan", "isinf", "isfinite", "floor", "ceil"};
    if (std::none_of(std::begin(exact), std::end(exact), [&](const char* f) { return n.name == f; })) return false;
  }
  if (n.op == ir::Op::TensorRead && (n.role == ir::Role::Local || n.role == ir::Role::Oracle))
    for (const auto& d : ct.oracle)
      if (d.name == n.name && d.value && !exactOnIntegers(*d.value, ct, depth + 1)) return false;
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const ir::NodePtr& k) { return !k || exactOnIntegers(*k, ct, depth); });
}

// Whether every sum the oracle makes adds terms that are exact on small integers (every
// value of it, when it makes none): then no accumulator rounds them, whatever its format,
// and a kernel failing on such inputs fails for another reason. A softmax adds exp(x), which
// rounds; a rmsnorm adds x^2, which does not (its sqrt rounds after, once).
bool sumsExactOnIntegers(const ir::Node& n, const sema::ContractInfo& ct, bool& anySum) {
  if (n.op == ir::Op::Reduce || n.op == ir::Op::TensorStat) {
    anySum = true;
    return std::all_of(n.kids.begin(), n.kids.end(), [&](const ir::NodePtr& k) { return !k || exactOnIntegers(*k, ct); });
  }
  return std::all_of(n.kids.begin(), n.kids.end(), [&](const ir::NodePtr& k) { return !k || sumsExactOnIntegers(*k, ct, anySum); });
}

// Whether the input `name` is read inside another read's index (an embedding's indices):
// its values choose cells, and small integers would choose others.
bool readAsIndex(const ir::Node& n, const std::string& name, bool inIndex) {
  if (n.op == ir::Op::TensorRead && n.role == ir::Role::Input && inIndex && n.name == name) return true;
  bool index = inIndex || n.op == ir::Op::TensorRead;
  return std::any_of(n.kids.begin(), n.kids.end(), [&](const ir::NodePtr& k) { return k && readAsIndex(*k, name, index); });
}

bool readAsIndex(const sema::ContractInfo& ct, const std::string& name) {
  return std::any_of(ct.oracle.begin(), ct.oracle.end(), [&](const sema::Definition& d) { return d.value && readAsIndex(*d.value, name, false); });
}

bool roundingRefutable(const sema::ContractInfo& ct) {
  bool anySum = false, sums = true, values = true;
  for (const auto& d : ct.oracle) {
    if (!d.value) continue;
    sums = sums && sumsExactOnIntegers(*d.value, ct, anySum);
    values = values && exactOnIntegers(*d.value, ct);
  }
  return anySum ? sums : values;
}

// An upper bound on the magnitude of N's value on inputs in -1..1 at the case's dims
// (inputs read as 1, dims as their values), through the oracle's definitions; infinity where
// it cannot tell (a division, a transcendental).
double magnitude(const ir::Node& n, const sema::ContractInfo& ct, const ir::IntEnv& dims, int depth = 0);

// How many terms a reduction over lo..hi (inclusive) adds at most: an index in a bound is
// below the largest dim (a ranged sum `k in 0..h` adds at most H).
double extent(const ir::Node& lo, const ir::Node& hi, const ir::IntEnv& dims) {
  int64_t widest = 1;
  for (const auto& [name, v] : dims) widest = std::max(widest, v);
  auto l = ir::evalInt(lo, dims), h = ir::evalInt(hi, dims);
  double from = l ? static_cast<double>(*l) : 0, to = h ? static_cast<double>(*h) : static_cast<double>(widest - 1);
  return std::max(0.0, to - from + 1);
}

double magnitude(const ir::Node& n, const sema::ContractInfo& ct, const ir::IntEnv& dims, int depth) {
  constexpr double kUnknown = std::numeric_limits<double>::infinity();
  if (depth > 16) return kUnknown;
  auto kid = [&](size_t i) { return i < n.kids.size() && n.kids[i] ? magnitude(*n.kids[i], ct, dims, depth) : kUnknown; };
  switch (n.op) {
    case ir::Op::ConstInt: return std::fabs(static_cast<double>(n.i));
    case ir::Op::ConstReal: return std::fabs(n.d);
    case ir::Op::ConstBool: return 1;
    case ir::Op::Dim: {
      auto v = dims.find(n.name);
      return v == dims.end() ? kUnknown : std::fabs(static_cast<double>(v->second));
    }
    case ir::Op::TensorRead:
      if (n.role == ir::Role::Local || n.role == ir::Role::Oracle)
        for (const auto& d : ct.oracle)
          if (d.name == n.name && d.value) return magnitude(*d.value, ct, dims, depth + 1);
      return n.role == ir::Role::Input ? 1 : kUnknown;
    case ir::Op::Neg:
    case ir::Op::Abs: return kid(0);
    case ir::Op::Add:
    case ir::Op::Sub: return kid(0) + kid(1);
    case ir::Op::Mul: return kid(0) * kid(1);
    case ir::Op::Pow:
      if (n.kids.size() == 2 && n.kids[1] && n.kids[1]->op == ir::Op::ConstInt && n.kids[1]->i >= 0)
        return std::pow(kid(0), static_cast<double>(n.kids[1]->i));
      return kUnknown;
    case ir::Op::Select: return std::max(kid(1), kid(2));
    case ir::Op::Call:
      if (n.name == "fmax" || n.name == "fmin") return std::max(kid(0), kid(1));
      return kUnknown;
    case ir::Op::Reduce:
      if (n.kids.size() != 3 || !n.kids[0] || !n.kids[1]) return kUnknown;
      if (n.name == "sum") return extent(*n.kids[0], *n.kids[1], dims) * kid(2);
      if (n.name == "max" || n.name == "min") return kid(2);
      return kUnknown;
    default:
      return ir::isComparison(n.op) || ir::isLogic(n.op) ? 1 : kUnknown;
  }
}

// The largest value a partial sum of one of the oracle's sums can reach on inputs in -1..1
// at the case's dims: its terms' count times their largest magnitude.
double largestPartialSum(const ir::Node& n, const sema::ContractInfo& ct, const ir::IntEnv& dims) {
  double most = 0;
  if (n.op == ir::Op::Reduce && n.name == "sum") most = magnitude(n, ct, dims);
  for (const auto& k : n.kids)
    if (k) most = std::max(most, largestPartialSum(*k, ct, dims));
  return most;
}

}  // namespace

// The case with one dim halved at a time (the one that lowers the reach most) until no sum of
// inputs in -1..1 can pass kExactSumReach; none when no halving lowers it.
std::optional<plan::Case> withinExactReach(const sema::ContractInfo& ct, plan::Case c) {
  for (int step = 0; step < 64; ++step) {
    double reach = largestPartialSum(ct, c);
    if (reach <= kExactSumReach) return c;
    size_t pick = c.dims.size();
    for (size_t k = 0; k < c.dims.size(); ++k) {
      if (c.dims[k].second <= 1) continue;
      plan::Case t = c;
      t.dims[k].second = (t.dims[k].second + 1) / 2;
      if (double r = largestPartialSum(ct, t); r < reach) {
        reach = r;
        pick = k;
      }
    }
    if (pick == c.dims.size()) return std::nullopt;
    c.dims[pick].second = (c.dims[pick].second + 1) / 2;
  }
  return std::nullopt;
}

double largestPartialSum(const sema::ContractInfo& ct, const plan::Case& c) {
  ir::IntEnv dims(c.dims.begin(), c.dims.end());
  double most = 0;
  for (const auto& d : ct.oracle)
    if (d.value) most = std::max(most, largestPartialSum(*d.value, ct, dims));
  return most;
}

Rounding needsRounding(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log) {
  plan::Case v = c;
  bool changed = false;
  for (auto& [name, index] : v.values) {
    plan::TensorPlan* t = ctx.plan.tensor(name);
    if (!t || t->scalar) continue;
    // Signed integer inputs are values to sum too (an int8 GEMM's: an f32 accumulator of
    // their products rounds past 2^24) unless they are indices, which keep their values;
    // a dtype variable may be a float or not.
    std::string dt = t->dtype;
    if (t->dtypeIsVar)
      for (const auto& [var, d] : c.dtypes)
        if (var == dt) dt = d;
    bool isFloat = dt == "f32" || dt == "f16" || dt == "bf16" || dt == "f64" || dt == "tf32";
    bool isSigned = dt == "i8" || dt == "i16" || dt == "i32" || dt == "i64";
    if (!isFloat && !(isSigned && !readAsIndex(*ctx.contract, name))) continue;
    plan::Distribution d;
    d.text = "small_ints(-1, 1)";
    d.value.kind = sema::ProtocolValue::Kind::Call;
    d.value.name = "small_ints";
    sema::ProtocolValue lo, hi;
    lo.i = -1;
    hi.i = 1;
    d.value.args = {{"", {lo}}, {"", {hi}}};
    d.origin = ctx.plan.contract;
    size_t k = 0;
    while (k < t->values.size() && t->values[k].text != d.text) ++k;
    if (k == t->values.size()) t->values.push_back(d);
    index = k;
    changed = true;
  }
  std::string at = "#" + std::to_string(c.number) + " on inputs in -1..1 (exact in every dtype and summation order): ";
  if (!changed) {
    log.push_back(at + "no value input to change");
    return Rounding::Unknown;
  }
  VariantRun r = runVariant(ctx, v, seed, marks);
  if (passed(r)) {
    log.push_back(at + "passes");
    return Rounding::Needed;
  }
  if (failed(r)) {
    if (!roundingRefutable(*ctx.contract)) {
      log.push_back(at + "fails too, but the oracle's sums of such inputs round too (their terms divide, take a root or a "
                         "transcendental): nothing shown");
      return Rounding::Unknown;
    }
    // Integers in -1..1 are exact only while the sums stay in the accumulator's integers:
    // bf16 holds them to 2^8, f16 to 2^11. A sum of |x| or x^2 over 4097 terms reaches 4097,
    // which a bf16 running sum rounds (it stalls at 256 on ones). Then the same inputs at
    // dims halved until no sum can pass 256 decide: failing there too is no rounding.
    if (double reach = largestPartialSum(*ctx.contract, c); reach > kExactSumReach) {
      std::optional<plan::Case> small = withinExactReach(*ctx.contract, v);
      std::ostringstream text;
      text << at << "fails too, but a sum of such inputs can reach " << reach << " here, past the " << kExactSumReach
           << " to which a bf16 accumulator holds integers";
      if (!small) {
        log.push_back(text.str() + "; no smaller dims keep the sums within it: nothing shown");
        return Rounding::Unknown;
      }
      VariantRun s = runVariant(ctx, *small, seed, marks);
      text << "; at " << dimsText(*small) << ", where none can, it ";
      if (failed(s)) {
        log.push_back(text.str() + "fails too");
        return Rounding::NotNeeded;
      }
      log.push_back(text.str() + (passed(s) ? "passes: nothing shown" : s.ran ? "gives no verdict: nothing shown" : "did not run (" + s.why + ")"));
      return Rounding::Unknown;
    }
    log.push_back(at + "fails too");
    return Rounding::NotNeeded;
  }
  log.push_back(at + (r.ran ? "no verdict" : "did not run (" + r.why + ")"));
  return Rounding::Unknown;
}

std::optional<numerics::DType> seesOnlyNarrowInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, bool& moved,
                                                    std::vector<std::string>& log) {
  moved = false;
  VariantRun base = runVariant(ctx, c, seed, marks);
  for (numerics::DType t : {numerics::DType::TF32, numerics::DType::F16, numerics::DType::BF16}) {
    InputEdit edit;
    edit.narrowTo = t;
    VariantRun r = runVariant(ctx, c, seed, marks, edit);
    std::string at = "#" + std::to_string(c.number) + " with its f32 inputs first rounded to " + std::string(numerics::dtypeName(t)) + ": ";
    if (!base.ran || !r.ran) {
      log.push_back(at + "did not run (" + (base.ran ? r.why : base.why) + ")");
      return std::nullopt;
    }
    // The inputs must move for the outputs' staying put to show anything: most cells of
    // random inputs change; integer inputs do not.
    auto [changed, cells] = changedInputCells(base, r);
    if (changed * 2 < cells || cells == 0) {
      log.push_back(at + std::to_string(changed) + " of " + std::to_string(cells) + " input cells changed (nothing shown)");
      return std::nullopt;  // a narrower format moves them no more than this one
    }
    moved = true;
    auto [same, written] = sameCells(base, r);
    std::string counts = std::to_string(same) + " of " + std::to_string(written) + " written cells bit for bit the same";
    // And the run on the narrow inputs passes: the kernel computes right on what it sees
    // (an output the inputs only clamp, an amax stuck at 0, stays put too, but wrong).
    // A kernel that rounds to a narrower format than t mostly keeps its bits on t's values
    // too, and still fails on them: the narrower format is tried next.
    // Failing on them only by rounding its result to the same format (every wrong cell
    // within half a t ulp of its exact value, beyond its tolerance): it computes in t, its
    // operands rounded first.
    bool resultRounded = failed(r) && !r.result.worst.empty() &&
                         std::all_of(r.result.worst.begin(), r.result.worst.end(), [&](const report::WorstCell& w) {
                           double tol = std::isnan(w.tolerance) ? 0 : w.tolerance;
                           return !w.unwritten && std::isfinite(w.got) && std::isfinite(w.expected) &&
                                  std::fabs(w.got - w.expected) <= 0.5 * numerics::ulp(t, w.expected) * (1 + 1e-9) + tol;
                         });
    if (written > 0 && same == written && resultRounded) {
      log.push_back(at + counts + ", and it fails on those inputs only by half a " + std::string(numerics::dtypeName(t)) +
                    " ulp or less: the kernel computes on the " + std::string(numerics::dtypeName(t)) + " value of its inputs");
      return t;
    }
    if (written > 0 && same * 10 >= written * 9 && !passed(r)) {
      log.push_back(at + counts + ", but it fails on those inputs too (greatest error " + fmtNum(r.result.maxAbsError) + ", was " +
                    fmtNum(base.result.maxAbsError) + "; nothing shown)");
      continue;
    }
    if (written > 0 && same * 10 >= written * 9) {
      log.push_back(at + counts + ": the kernel only sees the " + std::string(numerics::dtypeName(t)) + " value of its inputs");
      return t;
    }
    log.push_back(at + counts);
  }
  return std::nullopt;
}

std::optional<double> constantFactor(const report::CaseResult& r) {
  std::vector<double> ratios;
  bool zerosKeepSign = true;  // every wrong value 0 with its exact value's sign: times 0
  for (const auto& w : r.worst) {
    if (w.unwritten || !std::isfinite(w.got) || !std::isfinite(w.expected) || w.expected == 0) continue;
    ratios.push_back(w.got / w.expected);
    if (w.got != 0 || std::signbit(w.got) != std::signbit(w.expected)) zerosKeepSign = false;
  }
  if (ratios.size() < 3 && !(ratios.size() >= 1 && static_cast<int64_t>(ratios.size()) == r.mismatched)) return std::nullopt;
  if (zerosKeepSign) return 0.0;  // a result computed, then scaled by 0 (1 / N in integers)
  double f = ratios.front();
  // A factor within 1e-4 of 1 is not told from rounding; the ratios must agree to within a
  // hundredth of the factor's distance from 1 (a factor of 0.998 = sqrt(256 / 257) too).
  if (!std::isfinite(f) || std::fabs(f) < 1e-6 || std::fabs(f - 1) < 1e-4) return std::nullopt;
  double spread = 1e-2 * std::min(std::fabs(f), std::fabs(f - 1));
  for (double x : ratios)
    if (std::fabs(x - f) > spread) return std::nullopt;
  return f;
}

}  // namespace kc::diagnose
