#pragma once
// The helpers of a lowered oracle (lower.h), compiled into every generated translation unit:
// by nvcc for the GPU, by the host compiler for the host variant. Each is the twin of a host
// function of the f64 interpreter and gives the same bits for the same operands:
//   kc_add/kc_sub/kc_mul/kc_neg/kc_iabs  checker/oracle/integers.cpp (overflow is an error)
//   kc_floordiv, kc_mod, kc_ipow          ir::floorDiv, ir::floorMod, ir::intPow
//   kc_fmax/kc_fmin                       nanMax/nanMin (f64_domain.h: NaN wins)
//   kc_ulp                                numerics::ulp
//   kc_round_float, kc_round_int          numerics::roundTo (reference.cpp's formulas)
//   kc_gamma                              numerics::gamma
// An error (an integer overflow, a read outside a tensor) sets `e` and the operation gives
// 0 (or NaN): the cell is then reported, never used, and the host interpreter runs instead.
// No standard headers beyond C's: the same text compiles in nvcc's device pass.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __CUDACC__
#define KC_HD __host__ __device__ inline
#else
#define KC_HD inline
#endif

enum {
  KC_ERR_NONE = 0,
  KC_ERR_OVERFLOW = 1,
  KC_ERR_DIV0 = 2,
  KC_ERR_MOD0 = 3,
  KC_ERR_NEGEXP = 4,
  KC_ERR_READ = 5,
  KC_ERR_GAMMA = 6,
};

KC_HD int64_t kc_fail_i(int& e, int code) {
  if (!e) e = code;
  return 0;
}

KC_HD int64_t kc_add(int64_t a, int64_t b, int& e) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return kc_fail_i(e, KC_ERR_OVERFLOW);
  return a + b;
}
KC_HD int64_t kc_sub(int64_t a, int64_t b, int& e) {
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return kc_fail_i(e, KC_ERR_OVERFLOW);
  return a - b;
}
KC_HD bool kc_mul_overflows(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return false;
  if (a > 0) return b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
  return b > 0 ? a < INT64_MIN / b : (a == INT64_MIN || b == INT64_MIN || -a > INT64_MAX / -b);
}
KC_HD int64_t kc_mul(int64_t a, int64_t b, int& e) {
  if (kc_mul_overflows(a, b)) return kc_fail_i(e, KC_ERR_OVERFLOW);
  return a * b;
}
KC_HD int64_t kc_neg(int64_t a, int& e) { return a == INT64_MIN ? kc_fail_i(e, KC_ERR_OVERFLOW) : -a; }
KC_HD int64_t kc_iabs(int64_t a, int& e) { return a == INT64_MIN ? kc_fail_i(e, KC_ERR_OVERFLOW) : (a < 0 ? -a : a); }
KC_HD int64_t kc_floordiv(int64_t a, int64_t b, int& e) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return kc_fail_i(e, KC_ERR_DIV0);
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
KC_HD int64_t kc_mod(int64_t a, int64_t b, int& e) {
  if (b == 0) return kc_fail_i(e, KC_ERR_MOD0);
  if (b == -1) return 0;
  int64_t r = a % b;  // ir::floorMod: the floored remainder, with b's sign
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
KC_HD int64_t kc_ipow(int64_t base, int64_t exponent, int& e) {
  if (exponent < 0) return kc_fail_i(e, KC_ERR_NEGEXP);
  if (base == 0 || base == 1) return exponent == 0 ? 1 : base;
  if (base == -1) return exponent % 2 == 0 ? 1 : -1;
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) {
      if (kc_mul_overflows(result, base)) return kc_fail_i(e, KC_ERR_OVERFLOW);
      result *= base;
    }
    exponent >>= 1;
    if (exponent > 0) {
      if (kc_mul_overflows(base, base)) return kc_fail_i(e, KC_ERR_OVERFLOW);
      base *= base;
    }
  }
  return result;
}

KC_HD double kc_fmax(double a, double b) { return (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b); }
KC_HD double kc_fmin(double a, double b) { return (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b); }

// numerics::ulp of a format: precision p, largest exponent emax, 2^emin, least subnormal.
KC_HD double kc_ulp(double x, int p, int emax, double minNormal, double minSubnormal) {
  if (!isfinite(x)) return NAN;
  double a = fabs(x);
  if (a < minNormal) return minSubnormal;
  int e = ilogb(a);
  if (e > emax) e = emax;
  return ldexp(1.0, e - p + 1);
}

KC_HD double kc_round_half_even(double m) {
  double f = floor(m);
  double rest = m - f;
  if (rest > 0.5 || (rest == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
  return f;
}

// numerics::roundTo of a float format with IEEE overflow (Inf; NaN in a format without Inf).
KC_HD double kc_round_float(double x, int p, int emin, double maxFinite, bool finiteOnly) {
  if (isnan(x) || x == 0.0) return x;
  if (isinf(x)) return finiteOnly ? copysign(NAN, x) : x;
  double a = fabs(x);
  int e = ilogb(a);
  if (e < emin) e = emin;
  double quantum = ldexp(1.0, e - p + 1);
  double r = kc_round_half_even(a / quantum) * quantum;
  if (r > maxFinite) r = finiteOnly ? NAN : INFINITY;
  return copysign(r, x);
}

// numerics::roundTo of an integer format (Bool: 0 or 1).
KC_HD double kc_round_int(double x, double lo, double hi, bool isI64) {
  if (isnan(x)) return 0.0;
  if (x <= lo) return lo;
  if (x >= hi) return isI64 ? nextafter(hi, 0.0) : hi;
  return kc_round_half_even(x) + 0.0;
}
KC_HD double kc_round_bool(double x) { return x == 0.0 ? 0.0 : 1.0; }

// numerics::gamma(n, T) = n u / (1 - n u), u the unit roundoff; Inf once n u >= 1.
KC_HD double kc_gamma(int64_t n, double u, int& e) {
  if (n < 0) {
    if (!e) e = KC_ERR_GAMMA;
    return NAN;
  }
  double nu = (double)(uint64_t)n * u;
  if (nu >= 1.0) return HUGE_VAL;
  return nu / (1.0 - nu);
}

// The argument of a lowered program's entry point, kc_oracle_run (lower.h): host memory in,
// host memory out; where the work runs (a GPU, or this process) is the program's business.
// Tensors are contiguous and row-major; shapes are KC_MAX_RANK wide.
#define KC_MAX_RANK 8
typedef struct {
  const int64_t* dims;          // Lowered::dims
  const double* stats;          // Lowered::stats
  const double* const* reads;   // Lowered::reads: the cells, f64
  const int64_t* readShapes;    // [reads][KC_MAX_RANK]
  double* const* results;       // Lowered::computed: where each goes (null for a hoisted one)
  const int64_t* shapes;        // [computed][KC_MAX_RANK]
  char* message;                // why it failed, when it returns nonzero
  int messageBytes;
  double* seconds;              // the time of the work itself (device kernels and copies)
  int threads;                  // the host program's threads (a GPU's are its own)
} kc_oracle_io;
typedef int (*kc_oracle_run_fn)(const kc_oracle_io*);
