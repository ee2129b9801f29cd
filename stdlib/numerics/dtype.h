#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace kc::numerics {

// Element types. Bool..F64 carry the kernel ABI's dtype codes (0..11) and must keep them.
// TF32 is not a storage type: it is f32 storage holding a value rounded to 10 fraction bits
// (the low 13 mantissa bits zero), so it takes the first value after the ABI's range.
enum class DType : std::uint8_t {
  Bool = 0, U8, I8, I16, I32, I64, F8E4M3, F8E5M2, F16, BF16, F32, F64,
  TF32,
};
inline constexpr int kDTypeCount = 13;

// Lower-case names as the language spells them: "bool", "u8", ..., "f8e4m3", "bf16", "tf32".
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);

int sizeBytes(DType t);    // storage size; TF32 is stored as f32 (4 bytes)
bool isFloat(DType t);     // F8E4M3 .. F64 and TF32
bool isInteger(DType t);   // U8 .. I64 (Bool is neither integer nor float)
bool isSigned(DType t);    // signed integers and every float format

// Range of Bool and the integer types (Bool: 0..1). Throws std::invalid_argument for floats.
std::int64_t intMin(DType t);
std::int64_t intMax(DType t);

// A binary floating-point format. Finite nonzero values are ±M·2^(e-p+1) with M an integer,
// 2^(p-1) <= M < 2^p for emin <= e <= emax (normal), or 0 < M < 2^(p-1) with e = emin
// (subnormal).
struct FloatFormat {
  int precision;     // p: significand bits, the implicit leading bit included
  int exponentBits;  // width of the biased exponent field
  int bias;          // exponent field = e + bias for normal numbers
  int emin, emax;    // exponent range of normal numbers
  // OCP "fn" formats (e4m3fn): no infinities; the exponent field of all ones holds normal
  // numbers, except S.1111.111, the only NaN. Otherwise IEEE 754-like: all-ones exponent is
  // Inf (fraction 0) or NaN.
  bool finiteOnly;
  int fractionBits() const { return precision - 1; }
  int storageBits() const { return 1 + exponentBits + fractionBits(); }
};

// Throws std::invalid_argument for a type that is not a float format.
const FloatFormat& floatFormat(DType t);

double eps(DType t);            // 2^(1-p): the spacing of T at 1
double unitRoundoff(DType t);   // u = eps/2, the relative error bound of round-to-nearest
double minNormal(DType t);      // 2^emin
double minSubnormal(DType t);   // 2^(emin-p+1)
double maxFinite(DType t);      // e4m3fn: 448

// Spacing of T at |x|: 2^(e-p+1) for |x| in [2^e, 2^(e+1)), emin <= e <= emax; the subnormal
// spacing 2^(emin-p+1) below 2^emin; for |x| beyond the largest binade (max finite included)
// the spacing of that binade. NaN for NaN or ±Inf.
double ulp(DType t, double x);

}  // namespace kc::numerics
