#pragma once
// A dense host tensor of doubles: shape, row-major strides (in elements) and data. The f64
// oracle evaluator (evaluator.h) reads inputs and outputs as Tensors and returns every
// definition of the oracle and tolerance sections as one. Rank 0 is a scalar of one cell.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kc::oracle {

struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // row-major: strides.back() == 1
  std::vector<double> data;

  Tensor() : data(1, 0.0) {}  // a scalar 0
  explicit Tensor(std::vector<int64_t> s, double fill = 0.0) : shape(std::move(s)) {
    strides.assign(shape.size(), 1);
    int64_t n = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      if (shape[k] < 0) throw std::invalid_argument("Tensor: negative extent");
      strides[k] = n;
      if (__builtin_mul_overflow(n, shape[k], &n)) throw std::invalid_argument("Tensor: too many cells");
    }
    data.assign(static_cast<size_t>(n), fill);
  }
  static Tensor scalar(double v) {
    Tensor t;
    t.data[0] = v;
    return t;
  }
  // A tensor of the given shape with its cells, row-major.
  static Tensor of(std::vector<int64_t> s, std::vector<double> values) {
    Tensor t(std::move(s));
    if (values.size() != t.data.size()) throw std::invalid_argument("Tensor::of: wrong number of values");
    t.data = std::move(values);
    return t;
  }

  size_t rank() const { return shape.size(); }
  int64_t numel() const { return static_cast<int64_t>(data.size()); }

  // Offset of a cell; throws std::out_of_range outside the shape.
  int64_t offset(std::span<const int64_t> idx) const {
    if (idx.size() != shape.size()) throw std::out_of_range("Tensor: wrong number of indices");
    int64_t off = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      if (idx[k] < 0 || idx[k] >= shape[k])
        throw std::out_of_range("Tensor: index " + std::to_string(idx[k]) + " outside 0.." + std::to_string(shape[k] - 1));
      off += idx[k] * strides[k];
    }
    return off;
  }
  double& at(std::span<const int64_t> idx) { return data[static_cast<size_t>(offset(idx))]; }
  double at(std::span<const int64_t> idx) const { return data[static_cast<size_t>(offset(idx))]; }
  double& operator()(std::initializer_list<int64_t> idx) { return at(std::span<const int64_t>(idx.begin(), idx.size())); }
  double operator()(std::initializer_list<int64_t> idx) const {
    return at(std::span<const int64_t>(idx.begin(), idx.size()));
  }
};

}  // namespace kc::oracle
