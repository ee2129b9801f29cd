#include "stdlib/values/fill.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "stdlib/numerics/rounding.h"
#include "stdlib/values/sampling.h"

namespace kc::values {
namespace {

using numerics::DType;

enum Lane : std::uint32_t { kCellLane = 0, kRowLane = 1, kSpecialLane = 2 };

PhiloxCounter draw(const PhiloxKey& key, std::uint64_t index, Lane lane) {
  return philox4x32_10({static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32),
                        lane, 0},
                       key);
}

double intInRange(const PhiloxCounter& w, std::int64_t lo, std::int64_t hi) {
  auto n = static_cast<std::uint64_t>(hi - lo) + 1;
  return static_cast<double>(lo + static_cast<std::int64_t>(scaleToRange(joinWords(w[0], w[1]), n)));
}

double uniformIn(std::uint64_t r, double lo, double hi) {
  double v = lo + (hi - lo) * uniform01(r);
  return v < hi ? v : std::nextafter(hi, lo);  // lo + (hi-lo)u can round up to hi
}

// The drawn value before the dtype rounding.
struct Sampler {
  const PhiloxKey& key;
  std::uint64_t index;

  double operator()(const Normal& d) const {
    return d.mean + d.stddev * standardNormal(draw(key, index, kCellLane));
  }
  double operator()(const Uniform& d) const {
    PhiloxCounter w = draw(key, index, kCellLane);
    return uniformIn(joinWords(w[0], w[1]), d.lo, d.hi);
  }
  double operator()(const IntUniform& d) const {
    return intInRange(draw(key, index, kCellLane), d.lo, d.hi);
  }
  double operator()(const IndexMod& d) const {
    return static_cast<double>(index % d.prime) + d.offset;
  }
  double operator()(const ExactInt& d) const {
    PhiloxCounter w = draw(key, index, kCellLane);
    if (uniform01(joinWords(w[2], w[3])) < d.zeroDensity) return 0.0;
    return intInRange(w, -d.magnitude, d.magnitude);
  }
  double operator()(const ConstantRows& d) const {
    std::uint64_t rowStart = index - index % d.cols;
    return d.mean + d.stddev * standardNormal(draw(key, rowStart, kRowLane));
  }
  double operator()(const ShiftedRows& d) const {
    std::uint64_t rowStart = index - index % d.cols;
    PhiloxCounter w = draw(key, rowStart, kRowLane);
    double rowMean = uniformIn(joinWords(w[0], w[1]), d.meanLo, d.meanHi);
    return rowMean + d.stddev * standardNormal(draw(key, index, kCellLane));
  }
  double operator()(const CancelRows& d) const {
    std::uint64_t col = index % d.cols, half = d.cols / 2;
    if (col < half) return intInRange(draw(key, index, kCellLane), d.lo, d.hi);
    if (col < 2 * half) return -intInRange(draw(key, index - half, kCellLane), d.lo, d.hi);
    return 0.0;  // the middle cell of an odd row
  }
};

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("fill: ") + what);
}

bool probability(double p) { return p >= 0.0 && p <= 1.0; }

constexpr std::int64_t kTwo53 = std::int64_t{1} << 53;

struct Validator {
  void operator()(const Normal& d) const {
    require(std::isfinite(d.mean) && std::isfinite(d.stddev) && d.stddev >= 0,
            "normal needs a finite mean and stddev >= 0");
  }
  void operator()(const Uniform& d) const {
    require(std::isfinite(d.lo) && std::isfinite(d.hi) && d.lo < d.hi, "uniform needs lo < hi");
  }
  void operator()(const IntUniform& d) const {
    require(d.lo <= d.hi && d.lo >= -kTwo53 && d.hi <= kTwo53,
            "integer uniform needs lo <= hi within +-2^53");
  }
  void operator()(const IndexMod& d) const {
    require(d.prime >= 2 && std::isfinite(d.offset), "index fill needs a prime >= 2");
  }
  void operator()(const ExactInt& d) const {
    require(d.magnitude >= 0 && d.magnitude <= kTwo53 && probability(d.zeroDensity),
            "exact integers need 0 <= magnitude <= 2^53 and a zero density in [0, 1]");
  }
  void operator()(const ConstantRows& d) const {
    require(d.cols > 0 && std::isfinite(d.mean) && std::isfinite(d.stddev) && d.stddev >= 0,
            "constant rows need cols > 0 and stddev >= 0");
  }
  void operator()(const CancelRows& d) const {
    require(d.cols > 0 && d.lo <= d.hi && d.lo >= -kTwo53 && d.hi <= kTwo53,
            "cancel rows need cols > 0 and lo <= hi within +-2^53");
  }
  void operator()(const ShiftedRows& d) const {
    require(d.cols > 0 && std::isfinite(d.meanLo) && std::isfinite(d.meanHi) &&
                d.meanLo < d.meanHi && std::isfinite(d.stddev) && d.stddev >= 0,
            "shifted rows need cols > 0, meanLo < meanHi and stddev >= 0");
  }
};

// cellValue without validation, for the fill loop.
double computeCell(const FillSpec& spec, DType t, const std::vector<double>& specials,
                   const PhiloxKey& key, std::uint64_t index) {
  if (spec.specialRate > 0.0) {
    PhiloxCounter w = draw(key, index, kSpecialLane);
    if (uniform01(joinWords(w[0], w[1])) < spec.specialRate)
      return specials[scaleToRange(joinWords(w[2], w[3]), specials.size())];
  }
  return numerics::roundTo(t, std::visit(Sampler{key, index}, spec.dist));
}

}  // namespace

ShiftedRows largeMeanRows(std::uint64_t cols) { return {cols, 1e4, 1e6, 1.0}; }

ShiftedRows smallVarianceRows(std::uint64_t cols) { return {cols, -1.0, 1.0, 1e-3}; }

std::vector<double> specialValues(DType t) {
  if (!numerics::isFloat(t)) {
    std::vector<double> v = {0.0, static_cast<double>(numerics::intMin(t)),
                             numerics::roundTo(t, static_cast<double>(numerics::intMax(t)))};
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());  // Bool and U8: min is 0
    return v;
  }
  std::vector<double> v = {std::numeric_limits<double>::quiet_NaN()};
  if (!numerics::floatFormat(t).finiteOnly) {
    v.push_back(HUGE_VAL);
    v.push_back(-HUGE_VAL);
  }
  for (double x : {0.0, -0.0, numerics::minSubnormal(t), numerics::maxFinite(t)}) v.push_back(x);
  return v;
}

PhiloxKey streamKey(std::uint64_t seed, std::uint64_t tensorId) {
  PhiloxCounter w = philox4x32_10(
      {static_cast<std::uint32_t>(tensorId), static_cast<std::uint32_t>(tensorId >> 32), 0, 0},
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
  return {w[0], w[1]};
}

void validate(const FillSpec& spec, DType t) {
  numerics::dtypeName(t);  // throws for an invalid code
  require(probability(spec.specialRate), "special rate must lie in [0, 1]");
  std::visit(Validator{}, spec.dist);
}

double cellValue(const FillSpec& spec, DType t, const PhiloxKey& key, std::uint64_t index) {
  validate(spec, t);
  return computeCell(spec, t, specialValues(t), key, index);
}

void fill(const FillSpec& spec, DType t, std::uint64_t seed, std::uint64_t tensorId,
          std::span<double> out, unsigned threads, std::uint64_t firstIndex) {
  validate(spec, t);
  const PhiloxKey key = streamKey(seed, tensorId);
  const std::vector<double> specials = specialValues(t);
  auto work = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = computeCell(spec, t, specials, key, firstIndex + i);
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::size_t n = out.size();
  std::size_t parts = std::min<std::size_t>(threads, std::max<std::size_t>(n, 1));
  std::vector<std::thread> pool;
  for (std::size_t p = 1; p < parts; ++p) pool.emplace_back(work, n * p / parts, n * (p + 1) / parts);
  work(0, n / parts);
  for (std::thread& th : pool) th.join();
}

}  // namespace kc::values
