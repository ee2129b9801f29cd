#pragma once
#include <cstdint>
#include <span>

#include "stdlib/numerics/dtype.h"

namespace kc::numerics {

// Forward error bounds for floating-point summation and dot products, from N. J. Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM 2002 (cited as Higham).
// u is the unit roundoff of the accumulation format; all bounds assume round to nearest and
// no underflow or overflow. Non-float dtypes throw std::invalid_argument.

// gamma_n = n u / (1 - n u) (Higham §3.1, Lemma 3.1): |prod_{i<=n} (1 + d_i)^{+-1} - 1| <=
// gamma_n when every |d_i| <= u. +Inf when n u >= 1 (the lemma needs n u < 1).
double gamma(std::uint64_t n, DType t);

// The order in which n terms are added.
enum class SumOrder {
  Recursive,  // s += x_i, left to right
  Pairwise,   // a balanced binary tree of depth ceil(log2 n)
  Blocked,    // recursive sums of blocks of b terms, then a recursive sum of the block sums
};

// The most roundings any one term goes through: the h of the bound gamma_h sum |x_i|
// (Higham §4.2: the error of each term is a product of (1 + d) over the additions on its
// path, so the longest path bounds them all).
//   Recursive: n - 1.  Pairwise: ceil(log2 n).  Blocked: (b - 1) + (ceil(n / b) - 1), b <= n.
// productsRounded adds one for dot products, whose terms x_i = fl(a_i b_i) carry one rounding
// of their own (an FMA chain has the same count: its first FMA rounds the first product).
std::uint64_t roundingDepth(SumOrder order, std::uint64_t n, std::uint64_t block,
                            bool productsRounded);

// Sum of n terms in t: |fl(sum x_i) - sum x_i| <= sumGamma * sum |x_i|.
// Recursive: gamma_{n-1}; Pairwise: gamma_{ceil(log2 n)} (both Higham §4.2); Blocked with
// block b: gamma_{b + ceil(n/b) - 2} (the §4.2 argument; also Blanchard, Higham, Mary, "A
// class of fast and accurate summation algorithms", SIAM J. Sci. Comput. 42(3), 2020).
double sumGamma(SumOrder order, std::uint64_t n, DType t, std::uint64_t block = 1);

// Dot product of length k accumulated in t: |fl(a.b) - a.b| <= dotGamma * sum |a_k b_k|.
// Recursive: gamma_k (Higham §3.1); Pairwise: gamma_{ceil(log2 k) + 1}; Blocked with block b:
// gamma_{b + ceil(k/b) - 1} (roundingDepth with productsRounded).
double dotGamma(SumOrder order, std::uint64_t k, DType t, std::uint64_t block = 1);

// dotGamma(order, k, accumulator) * sum |a_k b_k|, with sum |a_k b_k| evaluated in double and
// raised by (1 + 2 gamma_{k+3}(f64)) so that the bound stays a bound despite its own
// roundings. a and b must have the same length k.
double dotErrorBound(std::span<const double> a, std::span<const double> b, SumOrder order,
                     DType accumulator, std::uint64_t block = 1);

// One rounding into t: |fl_t(y) - y| <= u_t |y| (Higham §2.2, Theorem 2.2; normal range).
double oneRounding(DType t, double y);

}  // namespace kc::numerics
