#pragma once

namespace kc::values {

// Elementary functions built only from IEEE-exact operations (+ - * / sqrt, floor, frexp,
// ldexp) in a fixed order, so they give the same bits on every conforming machine and C++
// library, unlike std::log and std::cos whose last bit differs between libms. Accurate to a
// few ulps, not correctly rounded. Build without FP contraction (GCC in ISO C++ mode, the
// project's default, does not contract; the clang pragma in the .cpp turns it off).

// Natural logarithm of a positive, finite, normal x.
double detLog(double x);

// cos(2*pi*t) for t in [0, 1).
double detCos2Pi(double t);

}  // namespace kc::values
