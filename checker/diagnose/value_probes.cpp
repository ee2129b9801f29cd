// The re-runs that test a hypothesis about the values a kernel computes rather than its
// shape or reads (probes.h): a scale it misses, an input it ignores, terms it drops, and a
// function it approximates.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checker/diagnose/probes.h"

namespace kc::diagnose {

namespace {


std::string fmtNum(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string caseAt(const plan::Case& c) { return "#" + std::to_string(c.number); }

// The float tensor inputs of a run (scalars are parameters: eps, a scale given as a number).
std::vector<const run::ArgSpec*> floatInputs(const VariantRun& v) {
  std::vector<const run::ArgSpec*> out;
  for (const auto& a : v.setup.args)
    if (!a.output && !a.shape.empty() && numerics::isFloat(a.dtype)) out.push_back(&a);
  return out;
}

int64_t outputCellCount(const VariantRun& v) {
  int64_t n = 0;
  for (const auto& a : v.setup.args)
    if (a.output) n += a.numel();
  return n;
}

struct Factor {
  double value;
  std::string text;               // "1/sqrt(D)"
  std::vector<std::string> dims;  // every dim of the case with that value: D (and S when S = D)
  double power = 1;               // value = dim^power
};

// The factors a scale is made of: each dim's square root, its size, and their inverses
// (1/sqrt(D) in attention, 1/N in a mean), roots first, then the squares (a scale applied
// the wrong way round, N where 1/N was meant, is off by N^2); one entry per distinct value.
std::vector<Factor> dimFactors(const plan::Case& c) {
  std::vector<Factor> out;
  auto add = [&](const std::string& dim, double x, double power, const std::string& text) {
    double v = std::pow(x, power);
    for (auto& f : out)
      if (std::fabs(f.value - v) <= 1e-12 * v) {
        if (f.power == power) {
          f.dims.push_back(dim);
          f.text += " = " + text;
        }
        return;
      }
    out.push_back({v, text, {dim}, power});
  };
  for (int pass = 0; pass < 3; ++pass)
    for (const auto& [dim, n] : c.dims) {
      if (n <= 1) continue;
      double x = static_cast<double>(n);
      if (pass == 0) {
        add(dim, x, -0.5, "1/sqrt(" + dim + ")");
        add(dim, x, 0.5, "sqrt(" + dim + ")");
      } else if (pass == 1) {
        add(dim, x, -1, "1/" + dim);
        add(dim, x, 1, dim);
      } else {  // a scale applied the wrong way round: x * N where x / N was meant
        add(dim, x, -2, "1/" + dim + "^2");
        add(dim, x, 2, dim + "^2");
      }
    }
  return out;
}

// A transcendental the kernel must approximate somehow (sqrt and the rest are exact or
// correctly rounded in every library).
bool transcendental(const ir::Node& n) {
  if (n.op == ir::Op::Call)
    for (const char* f : {"exp", "exp2", "log", "log2", "log10", "tanh", "erf", "sin", "cos", "sigmoid"})
      if (n.name == f) return true;
  return std::any_of(n.kids.begin(), n.kids.end(), [](const ir::NodePtr& k) { return k && transcendental(*k); });
}

}  // namespace

namespace {

int64_t dimOf(const plan::Case& c, const std::string& dim) {
  for (const auto& [d, v] : c.dims)
    if (d == dim) return v;
  return 0;
}

// The kernel's outputs on `c` with input `x` times `f` pass against the unscaled inputs' exact
// outputs and fail against the scaled ones' (so the factor matters).
bool scaledPasses(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, const std::string& x, double f) {
  InputEdit edit;
  edit.scaleInput = x;
  edit.scaleBy = f;
  edit.judgeUnedited = true;
  VariantRun r = runVariant(ctx, c, seed, marks, edit);
  return passed(r) && r.edited.verdict == report::Verdict::Fail;
}

}  // namespace

std::optional<std::string> passesWithInputScaled(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                 const std::vector<ScaleCheck>& others, std::vector<std::string>& log) {
  VariantRun base = runVariant(ctx, c, seed, marks);
  if (!failed(base)) return std::nullopt;
  std::vector<Factor> factors = dimFactors(c);
  int budget = std::min(16, ctx.runsLeft - 4);  // leave runs for the re-runs after this one
  int tried = 0;
  for (const run::ArgSpec* x : floatInputs(base))
    for (const Factor& f : factors) {
      if (tried >= budget) {
        log.push_back(caseAt(c) + " with one input scaled by a dim's factor: no scaled run of " + std::to_string(tried) +
                      " passes (the re-runs' budget for it is spent)");
        return std::nullopt;
      }
      ++tried;
      // Passing against the case's own exact values and failing against those of the scaled
      // inputs: the scale changes the exact result, and the kernel needs it to be right.
      if (!scaledPasses(ctx, c, seed, marks, x->name, f.value)) continue;
      std::string shown = "with " + x->name + " first multiplied by " + f.text + " = " + fmtNum(f.value) +
                          ", its outputs pass against the exact outputs of the unscaled inputs (and fail against those of the scaled ones)";
      log.push_back(caseAt(c) + " " + shown);
      // The same power of the dim on a failing case with another value of it, else on this
      // case with the dim at another of the plan's values.
      for (const std::string& dim : f.dims) {
        ScaleCheck check;
        bool found = false;
        for (const auto& o : others)
          if (!found && dimOf(o.kase, dim) > 1 && dimOf(o.kase, dim) != dimOf(c, dim)) {
            check = o;
            found = true;
          }
        const plan::DimPlan* dp = ctx.plan.dim(dim);
        if (!found && dp)
          for (int64_t v : dp->candidates)
            if (!found && v > 1 && v != dimOf(c, dim) && v <= 4096) {
              check = {c, seed, marks};
              for (auto& [d, x] : check.kase.dims)
                if (d == dim) x = v;
              found = true;
            }
        if (!found) continue;
        int64_t n = dimOf(check.kase, dim);
        double g = std::pow(static_cast<double>(n), f.power);
        bool confirmed = scaledPasses(ctx, check.kase, check.seed, check.marks, x->name, g);
        std::string where = check.kase.number == c.number ? caseAt(c) + " with " + dim + "=" + std::to_string(n)
                                                          : caseAt(check.kase) + " (" + dim + "=" + std::to_string(n) + ")";
        log.push_back(where + " with " + x->name + " first multiplied by " + fmtNum(g) +
                      (confirmed ? ": passes too: it misses that factor of " + dim : ": does not pass (not that factor of " + dim + ")"));
        if (confirmed)
          return "passes " + shown + ", and so does " + where + " with " + x->name + " times " + fmtNum(g) + ": it misses a factor " +
                 (f.power == -0.5 ? "1/sqrt(" : f.power == 0.5 ? "sqrt(" : f.power < 0 ? "1/(" : "(") + dim + ")" +
                 (std::fabs(f.power) == 2 ? "^2 (a scale applied the wrong way round)" : "");
      }
      return std::nullopt;
    }
  log.push_back(caseAt(c) + " with each float input scaled by a dim's size, square root or square, or their inverses (" + std::to_string(tried) +
                " runs): none passes");
  return std::nullopt;
}

std::optional<std::string> ignoresScaleInput(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                             std::vector<std::string>& log) {
  VariantRun base = runVariant(ctx, c, seed, marks);
  if (!failed(base)) return std::nullopt;
  int64_t outputCells = outputCellCount(base);
  size_t outputRank = 0;
  for (const auto& a : base.setup.args)
    if (a.output) outputRank = std::max(outputRank, a.shape.size());
  for (const run::ArgSpec* x : floatInputs(base)) {
    // A scale has fewer cells than the result it scales (per row, per column, per tensor),
    // or fewer dims: a per-column scale of a one-row result has as many cells as it.
    if (x->numel() >= outputCells && x->shape.size() >= outputRank) continue;
    InputEdit edit;
    edit.scaleInput = x->name;
    edit.scaleBy = 2;
    edit.judgeUnedited = true;
    VariantRun r = runVariant(ctx, c, seed, marks, edit);
    std::string at = caseAt(c) + " with " + x->name + " doubled: ";
    if (!r.ran) {
      log.push_back(at + "did not run (" + r.why + ")");
      continue;
    }
    if (!sameOutputs(base, r)) {
      log.push_back(at + "the outputs changed with it");
      continue;
    }
    // The exact outputs double with it: compare them at the worst cells both runs list.
    int matched = 0;
    bool doubled = true;
    for (const auto& w : r.result.worst)
      for (const auto& e : r.edited.worst)
        if (e.index == w.index && e.tensor == w.tensor && std::isfinite(w.expected) && w.expected != 0) {
          ++matched;
          if (std::fabs(e.expected - 2 * w.expected) > 1e-9 * std::fabs(w.expected)) doubled = false;
        }
    if (matched == 0 || !doubled) {
      log.push_back(at + "the outputs stayed bit for bit the same, but the exact ones do not double with it (nothing shown)");
      continue;
    }
    std::string shown = "its outputs stay bit for bit the same when " + x->name + " is doubled, while the exact outputs double";
    log.push_back(at + shown + ": it ignores the factor " + x->name);
    return shown;
  }
  return std::nullopt;
}

namespace {

// Whether some tensor input is read inside another read's index (an embedding's indices).
bool readsIndexTensor(const ir::Node& n, bool inIndex) {
  if (n.op == ir::Op::TensorRead && n.role == ir::Role::Input && inIndex) return true;
  bool index = inIndex || n.op == ir::Op::TensorRead;
  return std::any_of(n.kids.begin(), n.kids.end(), [&](const ir::NodePtr& k) { return k && readsIndexTensor(*k, index); });
}

}  // namespace

std::optional<std::string> keepsBoundedTerms(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                             std::vector<std::string>& log) {
  InputEdit ones;
  ones.ones = true;
  // Integer inputs are values to sum too (an int8 GEMM's), unless some are indices.
  ones.onesIntegers = std::none_of(ctx.contract->oracle.begin(), ctx.contract->oracle.end(),
                                   [](const sema::Definition& d) { return d.value && readsIndexTensor(*d.value, false); });
  VariantRun a = runVariant(ctx, c, seed, marks, ones);
  std::string at = caseAt(c) + " with every input 1 (each output then counts the terms it sums): ";
  if (!failed(a)) {
    log.push_back(at + (a.ran ? "passes (nothing shown)" : "did not run (" + a.why + ")"));
    return std::nullopt;
  }
  auto largest = [](const VariantRun& v, bool expected) {
    double m = -INFINITY;
    if (expected) {
      for (const auto& [name, x] : v.largestExact) m = std::max(m, x);
      return m;
    }
    size_t outputs = 0;
    for (const auto& s : v.setup.args) outputs += s.output;
    for (size_t o = 0; o < outputs; ++o)
      for (double y : outputCells(v, o))
        if (std::isfinite(y)) m = std::max(m, y);
    return m;
  };
  double y1 = largest(a, false), e1 = largest(a, true);
  if (!std::isfinite(y1) || !std::isfinite(e1) || y1 >= e1) {
    log.push_back(at + "fails, but not by summing fewer terms than the exact result (nothing shown)");
    return std::nullopt;
  }
  for (const auto& [dim, n] : c.dims) {
    const plan::DimPlan* dp = ctx.plan.dim(dim);
    if (n < 2 || n > 32768 || !dp || 2 * n > dp->hi ||
        (!dp->allowed.empty() && std::find(dp->allowed.begin(), dp->allowed.end(), 2 * n) == dp->allowed.end()))
      continue;
    plan::Case twice = c;
    for (auto& [d, v] : twice.dims)
      if (d == dim) v = 2 * n;
    VariantRun b = runVariant(ctx, twice, seed, marks, ones);
    double y2 = largest(b, false), e2 = largest(b, true);
    if (!failed(b) || !std::isfinite(y2) || !std::isfinite(e2) || e2 <= e1) {  // the dim does not add terms
      log.push_back(at + dim + "=" + std::to_string(2 * n) + " " +
                    (!b.ran ? "did not run (" + b.why + ")"
                            : !failed(b) ? "passes" : "leaves the largest exact output at " + fmtNum(e2) + " (no more terms)"));
      continue;
    }
    std::string shown = dim + "=" + std::to_string(n) + " -> " + std::to_string(2 * n) +
                        " moves the largest exact output from " + fmtNum(e1) + " to " + fmtNum(e2) + " but the kernel's only from " +
                        fmtNum(y1) + " to " + fmtNum(y2);
    // An accumulator overwritten keeps only the last part of the sum, whatever its length;
    // dropped terms at a bound (a k-tail, half the loop) grow with the dim as the sum does.
    if (y2 - y1 > (e2 - e1) / 8) {
      log.push_back(at + shown + ": it grows with " + dim + " (dropped terms, not a bounded part)");
      return std::nullopt;
    }
    log.push_back(at + shown + ": it keeps only a bounded part of the sum");
    return "with every input 1, " + shown + ": it keeps only the last part of the sum, as an accumulator overwritten (= for +=) does";
  }
  log.push_back(at + "fails, and no dim it could double showed how many terms it keeps");
  return std::nullopt;
}

std::optional<std::string> approximatesPointwise(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                 std::vector<std::string>& log) {
  const sema::ContractInfo& ct = *ctx.contract;
  if (!std::any_of(ct.oracle.begin(), ct.oracle.end(), [](const sema::Definition& d) { return d.value && transcendental(*d.value); }))
    return std::nullopt;
  // An oracle with a reduction is not pointwise, yet may be equivariant under reversal (a row
  // softmax reversed along its rows gives its outputs reversed): the test would not tell a
  // pointwise approximation from a whole computation done in a narrow type.
  bool reduces = false;
  for (const auto& d : ct.oracle)
    if (d.value) ir::walk(*d.value, [&](const ir::Node& n) { reduces = reduces || n.op == ir::Op::Reduce; });
  if (reduces) return std::nullopt;
  VariantRun a = runVariant(ctx, c, seed, marks);
  if (!failed(a)) return std::nullopt;
  std::string at = caseAt(c) + " with every float input's cells in reverse order: ";
  // Pointwise: every input has the shape of every output, and reversing the inputs reverses
  // the outputs bit for bit (each cell a function of its own input cell alone).
  std::vector<int64_t> shape;
  for (const auto& s : a.setup.args) {
    if (s.shape.empty()) continue;
    if (!s.output && !numerics::isFloat(s.dtype)) return std::nullopt;
    if (shape.empty()) shape = s.shape;
    if (s.shape != shape) return std::nullopt;
  }
  if (floatInputs(a).empty()) return std::nullopt;
  InputEdit rev;
  rev.reverse = true;
  VariantRun b = runVariant(ctx, c, seed, marks, rev);
  if (!b.ran) {
    log.push_back(at + "did not run (" + b.why + ")");
    return std::nullopt;
  }
  size_t outputs = 0;
  for (const auto& s : a.setup.args) outputs += s.output;
  for (size_t o = 0; o < outputs; ++o) {
    std::vector<double> x = outputCells(a, o), y = outputCells(b, o);
    std::reverse(y.begin(), y.end());
    bool same = x.size() == y.size();
    for (size_t k = 0; same && k < x.size(); ++k)
      same = (std::isnan(x[k]) && std::isnan(y[k])) || x[k] == y[k];
    if (!same) {
      log.push_back(at + "the outputs are not the original ones reversed (not a function of each cell alone)");
      return std::nullopt;
    }
  }
  // An approximation: finite where the exact value is, and close to it (a few percent of
  // the value's size, at least of 1); a value that overflows or a wrong function is not one.
  for (const auto& w : a.result.worst) {
    if (w.unwritten || !std::isfinite(w.expected) || !std::isfinite(w.got) ||
        std::fabs(w.got - w.expected) > std::max(std::fabs(w.expected), 1.0) / 32) {
      log.push_back(at + "the outputs are the original ones reversed, but a wrong cell (got " + fmtNum(w.got) + ", expected " +
                    fmtNum(w.expected) + ") is not close to its exact value (not an approximation)");
      return std::nullopt;
    }
  }
  std::string shown = "each output is a function of its own input cell (reversing the inputs reverses the outputs bit for bit), "
                      "within a few percent of the exact value but beyond the tolerance: the oracle's transcendental is approximated";
  log.push_back(at + "the outputs are the original ones reversed, bit for bit");
  return shown;
}

}  // namespace kc::diagnose

namespace kc::diagnose {

std::optional<std::string> errorGrowsWith(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, const std::string& dim,
                                          std::vector<std::string>& log) {
  constexpr uint64_t kMaxBytes = 256ull << 20;  // the largest re-run it makes
  const plan::DimPlan* dp = ctx.plan.dim(dim);
  int64_t n = 0;
  for (const auto& [d, v] : c.dims)
    if (d == dim) n = v;
  auto allowed = [&](int64_t v) {
    return dp && v >= dp->lo && v <= dp->hi &&
           (dp->allowed.empty() || std::find(dp->allowed.begin(), dp->allowed.end(), v) != dp->allowed.end());
  };
  std::vector<int64_t> values;
  if (n >= 1 && 16 * n <= 65536 && c.memoryBytes * 16 <= kMaxBytes) values = {n, 4 * n, 16 * n};
  else if (n >= 64) values = {n / 16, n / 4, n};
  std::string at = caseAt(c) + " with " + dim + " varied (same inputs' distributions, same seed): ";
  if (values.empty() || !std::all_of(values.begin(), values.end(), allowed)) {
    log.push_back(at + "no three values of " + dim + " to try (nothing shown)");
    return std::nullopt;
  }
  std::vector<double> ulps;
  std::string evidence;
  for (int64_t v : values) {
    plan::Case var = c;
    for (auto& [d, x] : var.dims)
      if (d == dim) x = v;
    VariantRun r = runVariant(ctx, var, seed, marks);
    if (!r.ran) {
      log.push_back(at + dim + "=" + std::to_string(v) + " did not run (" + r.why + ")");
      return std::nullopt;
    }
    double e = r.result.maxUlps;
    ulps.push_back(e);
    evidence += (evidence.empty() ? "max ulps " : ", ") + fmtNum(e) + " at " + dim + "=" + std::to_string(v);
  }
  // As across cases (checker/growth.h): it rises, never falling by more than 2x from one
  // value to the next, and ends at least 4 times above where it starts.
  bool grows = std::all_of(ulps.begin(), ulps.end(), [](double e) { return std::isfinite(e) && e > 0; });
  for (size_t k = 1; grows && k < ulps.size(); ++k)
    if (ulps[k] * 2 < ulps[k - 1]) grows = false;
  if (grows && ulps.back() < 4 * ulps.front()) grows = false;
  log.push_back(at + evidence + (grows ? ": the error grows with " + dim : ": it does not grow with " + dim));
  if (!grows) return std::nullopt;
  return "error grows with " + dim + " when only " + dim + " changes (" + evidence + ", shown on " + caseAt(c) + ")";
}

}  // namespace kc::diagnose

namespace kc::diagnose {

std::optional<std::string> overflowsOnLargeValues(ProbeContext& ctx, const plan::Case& c, const report::CaseResult& failure, uint64_t seed,
                                                  uint64_t marks, std::vector<std::string>& log) {
  bool infinite = std::any_of(failure.worst.begin(), failure.worst.end(), [](const report::WorstCell& w) {
    return !w.unwritten && std::isfinite(w.expected) && !std::isfinite(w.got);
  });
  if (!infinite) return std::nullopt;
  VariantRun base = runVariant(ctx, c, seed, marks);
  if (!failed(base)) return std::nullopt;
  std::vector<const run::ArgSpec*> inputs = floatInputs(base);
  if (inputs.empty()) return std::nullopt;
  std::string at = caseAt(c) + " (Inf or NaN where the exact value is finite) with every float input scaled down: ";
  std::string tried;
  for (double f : {1.0 / 4, 1.0 / 16, 1.0 / 256}) {
    // Every float input scaled at once; each is judged against its own exact outputs.
    plan::Case v = c;
    VariantRun r;
    {
      InputEdit edit;
      edit.scaleBy = f;
      for (const run::ArgSpec* x : inputs) edit.scaleInputs.push_back(x->name);
      r = runVariant(ctx, v, seed, marks, edit);
    }
    tried += (tried.empty() ? "" : ", ") + fmtNum(f);
    if (passed(r)) {
      std::string shown = "it writes Inf or NaN where the exact value is finite, and passes with its float inputs scaled by " + fmtNum(f) +
                          ": an intermediate overflows at large values";
      log.push_back(at + "by " + fmtNum(f) + " it passes");
      return shown;
    }
    if (!r.ran) {
      log.push_back(at + "by " + fmtNum(f) + " did not run (" + r.why + ")");
      return std::nullopt;
    }
  }
  log.push_back(at + "by " + tried + " it still fails (not a matter of size)");
  return std::nullopt;
}

namespace {

// A float accumulator of integer products fails at large sums too (f32 past 2^24), and
// passes once they are smaller, as a wrapping one does. Told apart by the inputs' size kept
// and their low bits dropped: each nonzero integer input rounded toward zero to a multiple
// of 16 (at least 16), so every product is a multiple of 256 and an f32 sum stays exact to
// 2^32, while a 16- or 32-bit integer intermediate sees sums as large as before. Whether
// it passes so (the failure is a rounding: not an overflow); the re-run is logged.
bool roundsLargeSums(ProbeContext& ctx, const plan::Case& c, const std::vector<std::string>& ints, uint64_t seed, uint64_t marks,
                     std::vector<std::string>& log) {
  InputEdit edit;
  edit.rewrite = [&](const run::ArgSpec& a, std::vector<double>& v) {
    if (std::find(ints.begin(), ints.end(), a.name) == ints.end()) return;
    for (double& x : v)
      if (x != 0) x = std::copysign(std::max(16.0, 16.0 * std::floor(std::fabs(x) / 16.0)), x);
  };
  VariantRun r = runVariant(ctx, c, seed, marks, edit);
  std::string at = caseAt(c) + " with its integer inputs rounded toward zero to multiples of 16 (as large, 4 fewer significant bits): ";
  if (passed(r)) {
    log.push_back(at + "passes: the large sums round (a float accumulator), they do not wrap");
    return true;
  }
  log.push_back(at + (r.ran ? "fails too: the sums' size, not their bits" : "did not run (" + r.why + ")"));
  return !r.ran;  // not shown either way: no overflow named
}

}  // namespace

std::optional<std::string> wrapsOnLargeIntegers(ProbeContext& ctx, const plan::Case& c, const report::CaseResult& failure, uint64_t seed,
                                                uint64_t marks, std::vector<std::string>& log) {
  const sema::ContractInfo& ct = *ctx.contract;
  if (std::any_of(ct.oracle.begin(), ct.oracle.end(), [](const sema::Definition& d) { return d.value && readsIndexTensor(*d.value, false); }))
    return std::nullopt;  // integer inputs that are indices: dividing them moves rows, not sums
  // Off by more than half the exact value: not a rounding, the value itself is wrong.
  bool wrong = false;
  for (const report::WorstCell& w : failure.worst) {
    if (w.unwritten || !std::isfinite(w.got) || !std::isfinite(w.expected)) return std::nullopt;
    if (std::fabs(w.got - w.expected) <= std::fabs(w.expected) / 2) return std::nullopt;
    wrong = true;
  }
  if (!wrong) return std::nullopt;
  VariantRun base = runVariant(ctx, c, seed, marks);
  if (!failed(base)) return std::nullopt;
  std::vector<std::string> ints;
  for (const auto& a : base.setup.args)
    if (!a.output && !a.shape.empty() && numerics::isInteger(a.dtype)) ints.push_back(a.name);
  if (ints.empty()) return std::nullopt;
  std::string names;
  for (const auto& n : ints) names += (names.empty() ? "" : ", ") + n;
  std::string at = caseAt(c) + " (wrong cells off by more than half their value) with its integer inputs (" + names + ") divided by ";
  for (double f : {16.0, 256.0}) {
    InputEdit edit;
    edit.rewrite = [&](const run::ArgSpec& a, std::vector<double>& v) {
      if (std::find(ints.begin(), ints.end(), a.name) == ints.end()) return;
      // Smaller, never 0: a value that vanished would hide any other wrong result.
      for (double& x : v)
        if (x != 0) x = std::copysign(std::max(1.0, std::nearbyint(std::fabs(x) / f)), x);
    };
    VariantRun r = runVariant(ctx, c, seed, marks, edit);
    if (passed(r)) {
      log.push_back(at + fmtNum(f) + ": passes");
      if (roundsLargeSums(ctx, c, ints, seed, marks, log)) return std::nullopt;
      return "its wrong cells are off by more than half their exact value, and it passes with its integer inputs (" + names +
             ") divided by " + fmtNum(f) + ": an integer intermediate wraps or saturates at large sums";
    }
    if (!r.ran) {
      log.push_back(at + fmtNum(f) + ": did not run (" + r.why + ")");
      return std::nullopt;
    }
  }
  log.push_back(at + "16 and by 256: it still fails (not a matter of size)");
  return std::nullopt;
}

}  // namespace kc::diagnose
