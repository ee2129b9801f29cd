#include "checker/run/structured_inputs.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "stdlib/numerics/rounding.h"
#include "stdlib/values/fill.h"

namespace kc::run {

namespace {

int64_t lastDim(const std::vector<int64_t>& shape) { return shape.empty() ? 1 : std::max<int64_t>(shape.back(), 1); }

void sortRows(const std::vector<int64_t>& shape, std::vector<double>& cells) {
  const auto cols = static_cast<size_t>(lastDim(shape));
  for (size_t r = 0; r + cols <= cells.size(); r += cols) std::sort(cells.begin() + r, cells.begin() + r + cols);
}

// One 1 per row, at a column drawn from the tensor's own stream (offset by 2 * 2^32: apart
// from the values' stream and the special values' one).
void oneHotRows(const std::vector<int64_t>& shape, uint64_t seed, uint64_t tensorId, unsigned threads,
                std::vector<double>& cells) {
  const auto cols = static_cast<size_t>(lastDim(shape));
  std::vector<double> u(cells.size() / cols);
  values::fill({values::Uniform{0.0, 1.0}, 0.0}, numerics::DType::F64, seed, tensorId + (2ull << 32), u, threads);
  std::fill(cells.begin(), cells.end(), 0.0);
  for (size_t r = 0; r < u.size(); ++r)
    cells[r * cols + std::min(cols - 1, static_cast<size_t>(u[r] * static_cast<double>(cols)))] = 1.0;
}

void triangular(const std::vector<int64_t>& shape, bool lower, std::vector<double>& cells) {
  const size_t rank = shape.size();
  const auto n = static_cast<size_t>(shape[rank - 2]), m = static_cast<size_t>(shape[rank - 1]);
  for (size_t base = 0; n * m > 0 && base + n * m <= cells.size(); base += n * m)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < m; ++j)
        if (lower ? j > i : j < i) cells[base + i * m + j] = 0.0;
}

// `what` works on square matrices in the last two dims (rank >= 2 is checked by the caller).
void requireSquare(const char* what, const std::vector<int64_t>& shape) {
  const size_t rank = shape.size();
  if (shape[rank - 2] != shape[rank - 1])
    throw std::runtime_error(std::string(what) + " needs square matrices in the last two dims; this case has " +
                             std::to_string(shape[rank - 2]) + " x " + std::to_string(shape[rank - 1]));
}

// (B + B^T) / 2 from the drawn B, for each square matrix of the last two dims.
void symmetric(const std::vector<int64_t>& shape, std::vector<double>& cells) {
  const size_t rank = shape.size();
  requireSquare("symmetric", shape);
  const auto n = static_cast<size_t>(shape[rank - 1]);
  for (size_t base = 0; n > 0 && base + n * n <= cells.size(); base += n * n)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < i; ++j) {
        double& a = cells[base + i * n + j];
        double& b = cells[base + j * n + i];
        a = b = (a + b) / 2;
      }
}

// B B^T / n + I from the drawn B: symmetric (both triangles from the same sums), eigenvalues
// >= 1.
void positiveDefinite(const std::vector<int64_t>& shape, std::vector<double>& cells) {
  const size_t rank = shape.size();
  requireSquare("positive_definite", shape);
  const auto n = static_cast<size_t>(shape[rank - 1]);
  std::vector<double> b, a(n * n);
  for (size_t base = 0; n > 0 && base + n * n <= cells.size(); base += n * n) {
    b.assign(cells.begin() + base, cells.begin() + base + n * n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j <= i; ++j) {
        double s = 0;
        for (size_t k = 0; k < n; ++k) s += b[i * n + k] * b[j * n + k];
        a[i * n + j] = a[j * n + i] = s / static_cast<double>(n) + (i == j ? 1.0 : 0.0);
      }
    std::copy(a.begin(), a.end(), cells.begin() + base);
  }
}

}  // namespace

bool isStructured(const sema::ProtocolValue& v) {
  const std::string& n = v.name;
  return (v.kind == sema::ProtocolValue::Kind::Name || v.kind == sema::ProtocolValue::Kind::Call) &&
         (n == "triangular" || n == "one_hot" || n == "sorted" || n == "positive_definite" || n == "symmetric");
}

void applyStructure(const sema::ProtocolValue& v, const std::vector<int64_t>& shape, numerics::DType t,
                    uint64_t seed, uint64_t tensorId, unsigned threads, std::vector<double>& cells) {
  if (!isStructured(v) || cells.empty()) return;
  if ((v.name == "triangular" || v.name == "positive_definite" || v.name == "symmetric") && shape.size() < 2)
    throw std::runtime_error(v.str() + " needs a tensor of rank >= 2");
  if (v.name == "sorted") sortRows(shape, cells);
  if (v.name == "one_hot") oneHotRows(shape, seed, tensorId, threads, cells);
  if (v.name == "triangular") {
    bool lower = v.args.empty() || v.args[0].second.empty() || v.args[0].second[0].name != "upper";
    triangular(shape, lower, cells);
  }
  if (v.name == "positive_definite") positiveDefinite(shape, cells);
  if (v.name == "symmetric") symmetric(shape, cells);
  for (double& x : cells) x = numerics::roundTo(t, x);  // the values a tensor of T holds
}

}  // namespace kc::run
