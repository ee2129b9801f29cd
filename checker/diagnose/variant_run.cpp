#include "checker/diagnose/variant_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "checker/run/judge.h"
#include "checker/run/marks.h"
#include "compiler/ir/eval.h"
#include "stdlib/numerics/float_bits.h"

namespace kc::diagnose {

namespace {

// Calls f(storage byte offset) for every cell of the view of `a`, in row-major order.
template <typename F>
void forEachCell(const run::ArgSpec& a, F f) {
  int64_t n = a.numel();
  if (n <= 0) return;
  std::vector<int64_t> idx(a.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    f(static_cast<size_t>(a.storageIndex(idx)) * a.elementBytes());
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < a.shape[d]) break;
      idx[d] = 0;
    }
  }
}

// The cells of a tensor input's view in row-major order, handed to edit.rewrite and stored
// back: floats rounded to the dtype, integers rounded and clamped to its range.
void rewriteInput(const run::ArgSpec& a, std::vector<uint8_t>& storage, const InputEdit& edit) {
  const size_t w = a.elementBytes();
  const bool isFloat = numerics::isFloat(a.dtype);
  if (!isFloat && !numerics::isInteger(a.dtype)) return;
  std::vector<size_t> cells;
  forEachCell(a, [&](size_t at) {
    if (at + w <= storage.size()) cells.push_back(at);
  });
  std::vector<double> values;
  values.reserve(cells.size());
  for (size_t at : cells) {
    uint64_t bits = 0;
    std::memcpy(&bits, storage.data() + at, w);
    if (isFloat) {
      values.push_back(numerics::decode(a.dtype == numerics::DType::TF32 ? numerics::DType::F32 : a.dtype, bits));
    } else {
      int shift = static_cast<int>(64 - 8 * w);
      values.push_back(numerics::isSigned(a.dtype) ? static_cast<double>(static_cast<int64_t>(bits << shift) >> shift)
                                                   : static_cast<double>(bits));
    }
  }
  if (values.size() != static_cast<size_t>(a.numel())) return;  // a view past its storage: left alone
  edit.rewrite(a, values);
  for (size_t k = 0; k < cells.size(); ++k) {
    uint64_t bits = 0;
    if (isFloat) {
      bits = numerics::encode(a.dtype, numerics::roundTo(a.dtype, values[k]));
    } else {
      double v = std::nearbyint(values[k]);
      v = std::clamp(v, static_cast<double>(numerics::intMin(a.dtype)), static_cast<double>(numerics::intMax(a.dtype)));
      bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    }
    std::memcpy(storage.data() + cells[k], &bits, w);
  }
}

void editInput(const run::ArgSpec& a, std::vector<uint8_t>& storage, const InputEdit& edit) {
  if (edit.rewrite && !a.output && !a.shape.empty()) rewriteInput(a, storage, edit);
  if (edit.onesIntegers && !a.output && !a.shape.empty() && !numerics::isFloat(a.dtype)) {
    const size_t w = a.elementBytes();
    forEachCell(a, [&](size_t at) {
      uint64_t one = 1;  // little-endian: the low w bytes
      if (at + w <= storage.size()) std::memcpy(storage.data() + at, &one, w);
    });
    return;
  }
  if (a.output || !numerics::isFloat(a.dtype)) return;
  const size_t w = a.elementBytes();
  auto load = [&](size_t at) {
    uint64_t bits = 0;
    std::memcpy(&bits, storage.data() + at, w);
    return numerics::decode(a.dtype == numerics::DType::TF32 ? numerics::DType::F32 : a.dtype, bits);
  };
  auto store = [&](size_t at, double v) {
    uint64_t bits = numerics::encode(a.dtype, v);
    std::memcpy(storage.data() + at, &bits, w);
  };
  if (edit.gap != InputEdit::Gap::Poison) {
    std::vector<bool> inView(static_cast<size_t>(a.storage), false);
    double lo = INFINITY, hi = -INFINITY;
    forEachCell(a, [&](size_t at) {
      inView[at / w] = true;
      double v = load(at);
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    });
    if (!std::isfinite(lo)) lo = hi = 0;
    double value = edit.gap == InputEdit::Gap::High ? hi : lo < hi ? lo : lo - 1 - std::fabs(lo);
    for (size_t i = 0; i < inView.size() && (i + 1) * w <= storage.size(); ++i)
      if (!inView[i]) store(i * w, numerics::roundTo(a.dtype, value));
  }
  const bool scaled = edit.scaleBy != 1 && (edit.scaleInput == a.name ||
                                            std::find(edit.scaleInputs.begin(), edit.scaleInputs.end(), a.name) != edit.scaleInputs.end());
  if (!a.shape.empty() && (edit.ones || edit.reverse || scaled)) {
    std::vector<size_t> cells;
    forEachCell(a, [&](size_t at) {
      if (at + w <= storage.size()) cells.push_back(at);
    });
    std::vector<double> values;
    for (size_t at : cells) values.push_back(load(at));
    if (edit.reverse) std::reverse(values.begin(), values.end());
    for (double& v : values) {
      if (edit.ones) v = 1;
      if (scaled) v *= edit.scaleBy;
    }
    for (size_t k = 0; k < cells.size(); ++k) store(cells[k], numerics::roundTo(a.dtype, values[k]));
  }
  // Tensors only: a scalar (eps, a scale) is a parameter, not an operand.
  if (edit.narrowTo && !a.shape.empty() && (a.dtype == numerics::DType::F32 || a.dtype == numerics::DType::F64))
    forEachCell(a, [&](size_t at) {
      if (at + w > storage.size()) return;
      double v = load(at);
      if (std::isfinite(v)) store(at, numerics::roundTo(*edit.narrowTo, v));
    });
}

}  // namespace

VariantInputs variantInputs(ProbeContext& ctx, const plan::Case& variant, uint64_t seed, uint64_t marks, const InputEdit& edit) {
  VariantInputs in;
  in.setup = run::setupCase(*ctx.contract, ctx.plan, variant);
  run::setMarks(in.setup, marks);
  for (size_t a = 0; a < in.setup.args.size(); ++a)
    in.storage.push_back(run::makeStorage(in.setup, ctx.plan, variant, a, seed, ctx.threads));
  for (size_t a = 0; a < in.setup.args.size(); ++a) editInput(in.setup.args[a], in.storage[a], edit);
  return in;
}

size_t layoutIndex(plan::TensorPlan& t, const plan::Layout& layout) {
  size_t i = 0;
  while (i < t.layouts.size() && t.layouts[i].text != layout.text) ++i;
  if (i == t.layouts.size()) t.layouts.push_back(layout);
  return i;
}

bool dimsMayMeetPre(const ProbeContext& ctx, const plan::Case& variant) {
  ir::IntEnv env;
  for (const auto& [name, value] : variant.dims) env[name] = value;
  for (const auto& pre : ctx.contract->pre)
    if (ir::evalCond(*pre.expr, env) == false) return false;
  return true;
}

VariantRun runVariant(ProbeContext& ctx, const plan::Case& variant, uint64_t seed, uint64_t marks, const InputEdit& edit,
                      bool waitForDevice, const std::string& perturb) {
  VariantRun v;
  if (ctx.runsLeft <= 0 || ctx.secondsLeft <= 0) {
    v.why = kBudgetSpent;
    return v;
  }
  if (!dimsMayMeetPre(ctx, variant)) {
    v.why = "its dims break a precondition over dims only";
    return v;
  }
  --ctx.runsLeft;
  auto start = std::chrono::steady_clock::now();
  try {
    VariantInputs pristine = variantInputs(ctx, variant, seed, marks);
    v.setup = std::move(pristine.setup);
    v.storage = std::move(pristine.storage);
    std::vector<std::vector<uint8_t>> unedited;
    if (edit.judgeUnedited) unedited = v.storage;
    for (size_t a = 0; a < v.setup.args.size(); ++a) editInput(v.setup.args[a], v.storage[a], edit);
    run::WorkerRequest wr = ctx.worker;
    wr.setup = &v.setup;
    wr.storage = v.storage;
    wr.repeats = 1;
    wr.perturb = perturb;
    wr.deviceSync = waitForDevice;
    run::LaunchRecord rec = run::runInWorker(wr);
    if (edit.judgeUnedited) {
      run::JudgeInput je{ctx.contract, &ctx.plan, &variant, &v.setup, &v.storage, &rec, ctx.threads, nullptr};
      run::judge(je, v.edited);
      // The inputs the kernel left as it was given them read as the unedited ones, so the
      // judge neither sees them changed nor computes the oracle on the edited values.
      for (size_t a = 0; a < v.setup.args.size() && a < rec.images.size(); ++a) {
        if (v.setup.args[a].output) continue;
        for (auto& image : rec.images[a])
          if (image.size() >= run::kCanaryBytes + v.storage[a].size() &&
              std::memcmp(image.data() + run::kCanaryBytes, v.storage[a].data(), v.storage[a].size()) == 0)
            std::memcpy(image.data() + run::kCanaryBytes, unedited[a].data(), unedited[a].size());
      }
      v.storage = std::move(unedited);
    }
    run::JudgeInput j{ctx.contract, &ctx.plan, &variant, &v.setup, &v.storage, &rec, ctx.threads, nullptr};
    j.largestExact = &v.largestExact;
    run::judge(j, v.result);
    for (size_t a = 0; a < v.setup.args.size(); ++a)
      if (v.setup.args[a].output) v.outputs.push_back(a < rec.images.size() && !rec.images[a].empty() ? rec.images[a][0] : std::vector<uint8_t>{});
    v.ran = rec.status == run::LaunchStatus::Ok;
    if (!v.ran) v.why = rec.message.empty() ? "the re-run did not complete" : rec.message;
  } catch (const std::exception& e) {
    v.why = e.what();
  }
  ctx.secondsLeft -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return v;
}

namespace {

// A float cell that is not NaN or infinite (integers always are): an output of NaN in both
// runs (exp overflowed) is not a result that ignores its inputs.
bool finiteCell(numerics::DType t, const uint8_t* p) {
  if (!numerics::isFloat(t)) return true;
  uint64_t bits = 0;
  std::memcpy(&bits, p, static_cast<size_t>(numerics::sizeBytes(t)));  // little-endian: the low bytes
  return std::isfinite(numerics::decode(t, bits));
}

}  // namespace

std::vector<double> outputCells(const VariantRun& v, size_t o) {
  std::vector<double> out;
  size_t k = 0;
  for (const run::ArgSpec& s : v.setup.args) {
    if (!s.output) continue;
    if (k++ != o) continue;
    if (o >= v.outputs.size() || v.outputs[o].empty()) return out;
    const auto& image = v.outputs[o];
    std::vector<uint8_t> poison = run::poisonOf(s);
    size_t w = s.elementBytes();
    forEachCell(s, [&](size_t at) {
      const uint8_t* p = image.data() + run::kCanaryBytes + at;
      if (at + run::kCanaryBytes + w > image.size() || std::memcmp(p, poison.data(), w) == 0) {
        out.push_back(NAN);
        return;
      }
      uint64_t bits = 0;
      std::memcpy(&bits, p, w);
      if (numerics::isFloat(s.dtype)) {
        out.push_back(numerics::decode(s.dtype, bits));
      } else {  // a signed integer of w bytes
        int shift = static_cast<int>(64 - 8 * w);
        out.push_back(static_cast<double>(static_cast<int64_t>(bits << shift) >> shift));
      }
    });
  }
  return out;
}

bool sameOutputs(const VariantRun& a, const VariantRun& b, int64_t* written) {
  size_t o = 0;
  if (written) *written = 0;
  for (size_t i = 0; i < a.setup.args.size(); ++i) {
    const run::ArgSpec& sa = a.setup.args[i];
    if (!sa.output) continue;
    const run::ArgSpec& sb = b.setup.args[i];
    const auto& ia = a.outputs.at(o);
    const auto& ib = b.outputs.at(o);
    ++o;
    if (ia.empty() || ib.empty() || sa.storage != sb.storage) return false;
    std::vector<uint8_t> pa = run::poisonOf(sa), pb = run::poisonOf(sb);
    size_t w = sa.elementBytes();
    bool same = true;
    forEachCell(sa, [&](size_t at) {
      const uint8_t* x = ia.data() + run::kCanaryBytes + at;
      const uint8_t* y = ib.data() + run::kCanaryBytes + at;
      bool unwritten = std::memcmp(x, pa.data(), w) == 0 && std::memcmp(y, pb.data(), w) == 0;
      if (written && !unwritten && finiteCell(sa.dtype, x)) ++*written;
      if (unwritten || std::memcmp(x, y, w) == 0) return;
      same = false;
    });
    if (!same) return false;
  }
  return true;
}

std::pair<int64_t, int64_t> sameCells(const VariantRun& a, const VariantRun& b) {
  int64_t same = 0, written = 0;
  size_t o = 0;
  for (size_t i = 0; i < a.setup.args.size(); ++i) {
    const run::ArgSpec& sa = a.setup.args[i];
    if (!sa.output) continue;
    const auto& ia = a.outputs.at(o);
    const auto& ib = b.outputs.at(o);
    ++o;
    if (ia.empty() || ib.empty() || sa.storage != b.setup.args[i].storage) continue;
    std::vector<uint8_t> pa = run::poisonOf(sa);
    size_t w = sa.elementBytes();
    forEachCell(sa, [&](size_t at) {
      const uint8_t* x = ia.data() + run::kCanaryBytes + at;
      const uint8_t* y = ib.data() + run::kCanaryBytes + at;
      if (std::memcmp(x, pa.data(), w) == 0 || !finiteCell(sa.dtype, x)) return;
      ++written;
      if (std::memcmp(x, y, w) == 0) ++same;
    });
  }
  return {same, written};
}

std::pair<int64_t, int64_t> changedInputCells(const VariantRun& a, const VariantRun& b) {
  std::pair<int64_t, int64_t> best{0, 0};
  for (size_t i = 0; i < a.setup.args.size(); ++i) {
    const run::ArgSpec& s = a.setup.args[i];
    if (s.output || s.shape.empty() || !numerics::isFloat(s.dtype) || i >= a.storage.size() || i >= b.storage.size()) continue;
    int64_t changed = 0, cells = 0;
    forEachCell(s, [&](size_t at) {
      if (at + s.elementBytes() > a.storage[i].size() || at + s.elementBytes() > b.storage[i].size()) return;
      ++cells;
      if (std::memcmp(a.storage[i].data() + at, b.storage[i].data() + at, s.elementBytes()) != 0) ++changed;
    });
    // The most changed tensor, by share of its cells.
    if (cells > 0 && (best.second == 0 || changed * best.second > best.first * cells)) best = {changed, cells};
  }
  return best;
}

bool inputsDiffer(const VariantRun& a, const VariantRun& b) {
  for (size_t i = 0; i < a.setup.args.size(); ++i) {
    const run::ArgSpec& s = a.setup.args[i];
    if (s.output || i >= a.storage.size() || i >= b.storage.size()) continue;
    bool differ = false;
    forEachCell(s, [&](size_t at) {
      if (at + s.elementBytes() <= a.storage[i].size() && at + s.elementBytes() <= b.storage[i].size() &&
          std::memcmp(a.storage[i].data() + at, b.storage[i].data() + at, s.elementBytes()) != 0)
        differ = true;
    });
    if (differ) return true;
  }
  return false;
}

void foldBudgetSpent(std::vector<std::string>& probes) {
  const std::string mark = std::string("(") + kBudgetSpent + ")";
  auto spent = [&](const std::string& line) {
    return line.size() >= mark.size() && line.compare(line.size() - mark.size(), mark.size(), mark) == 0;
  };
  auto first = std::find_if(probes.begin(), probes.end(), spent);
  if (first == probes.end()) return;
  size_t index = static_cast<size_t>(first - probes.begin());
  size_t others = static_cast<size_t>(std::count_if(first + 1, probes.end(), spent));
  if (others == 0) return;
  probes.erase(std::remove_if(probes.begin() + static_cast<long>(index) + 1, probes.end(), spent), probes.end());
  std::string& line = probes[index];
  line.insert(line.size() - 1, "; " + std::to_string(others) + " more re-run" + (others == 1 ? " was" : "s were") + " not made");
}

}  // namespace kc::diagnose
