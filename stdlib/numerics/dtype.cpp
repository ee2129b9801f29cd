#include "stdlib/numerics/dtype.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kcontract/abi.h"
#include "stdlib/numerics/double_bits.h"

namespace kc::numerics {
namespace {

struct TypeInfo {
  std::string_view name;
  int sizeBytes;
};

// The element types' codes are the kernel ABI's (include/kcontract/abi.h, enum kc_dtype):
// one list of codes, checked here at compile time. The CUDA support kernels use abi.h's
// codes directly (backends/cuda/support/kc_cuda_support.cu).
static_assert(static_cast<int>(DType::Bool) == KC_BOOL && static_cast<int>(DType::U8) == KC_U8 &&
              static_cast<int>(DType::I8) == KC_I8 && static_cast<int>(DType::I16) == KC_I16 &&
              static_cast<int>(DType::I32) == KC_I32 && static_cast<int>(DType::I64) == KC_I64 &&
              static_cast<int>(DType::F8E4M3) == KC_F8E4M3 && static_cast<int>(DType::F8E5M2) == KC_F8E5M2 &&
              static_cast<int>(DType::F16) == KC_F16 && static_cast<int>(DType::BF16) == KC_BF16 &&
              static_cast<int>(DType::F32) == KC_F32 && static_cast<int>(DType::F64) == KC_F64,
              "numerics::DType must carry the kernel ABI's dtype codes (kcontract/abi.h)");
static_assert(static_cast<int>(DType::TF32) == KC_F64 + 1 && kDTypeCount == KC_F64 + 2,
              "TF32 is the first code after the ABI's range, and the last DType");

// Indexed by the enum value.
constexpr std::array<TypeInfo, kDTypeCount> kTypes = {{
    {"bool", 1}, {"u8", 1}, {"i8", 1}, {"i16", 2}, {"i32", 4}, {"i64", 8},
    {"f8e4m3", 1}, {"f8e5m2", 1}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8},
    {"tf32", 4},
}};
static_assert(kTypes[KC_BOOL].name == "bool" && kTypes[KC_U8].name == "u8" && kTypes[KC_I8].name == "i8" &&
              kTypes[KC_I16].name == "i16" && kTypes[KC_I32].name == "i32" && kTypes[KC_I64].name == "i64" &&
              kTypes[KC_F8E4M3].name == "f8e4m3" && kTypes[KC_F8E5M2].name == "f8e5m2" && kTypes[KC_F16].name == "f16" &&
              kTypes[KC_BF16].name == "bf16" && kTypes[KC_F32].name == "f32" && kTypes[KC_F64].name == "f64" &&
              kTypes[static_cast<int>(DType::TF32)].name == "tf32",
              "kTypes is indexed by the dtype code");

// {precision, exponentBits, bias, emin, emax, finiteOnly}
constexpr FloatFormat kF8E4M3 = {4, 4, 7, -6, 8, true};
constexpr FloatFormat kF8E5M2 = {3, 5, 15, -14, 15, false};
constexpr FloatFormat kF16 = {11, 5, 15, -14, 15, false};
constexpr FloatFormat kBF16 = {8, 8, 127, -126, 127, false};
constexpr FloatFormat kTF32 = {11, 8, 127, -126, 127, false};
constexpr FloatFormat kF32 = {24, 8, 127, -126, 127, false};
constexpr FloatFormat kF64 = {53, 11, 1023, -1022, 1023, false};

std::size_t index(DType t) {
  auto i = static_cast<std::size_t>(t);
  if (i >= kTypes.size()) throw std::invalid_argument("invalid dtype code " + std::to_string(i));
  return i;
}

}  // namespace

std::string_view dtypeName(DType t) { return kTypes[index(t)].name; }

std::optional<DType> parseDType(std::string_view name) {
  for (std::size_t i = 0; i < kTypes.size(); ++i)
    if (kTypes[i].name == name) return static_cast<DType>(i);
  return std::nullopt;
}

int sizeBytes(DType t) { return kTypes[index(t)].sizeBytes; }

bool isFloat(DType t) {
  index(t);
  return t >= DType::F8E4M3;
}

bool isInteger(DType t) {
  index(t);
  return t >= DType::U8 && t <= DType::I64;
}

bool isSigned(DType t) { return isFloat(t) || (isInteger(t) && t != DType::U8); }

std::int64_t intMin(DType t) {
  switch (t) {
    case DType::Bool: return 0;
    case DType::U8: return 0;
    case DType::I8: return INT8_MIN;
    case DType::I16: return INT16_MIN;
    case DType::I32: return INT32_MIN;
    case DType::I64: return INT64_MIN;
    default: throw std::invalid_argument("intMin of non-integer dtype " + std::string(dtypeName(t)));
  }
}

std::int64_t intMax(DType t) {
  switch (t) {
    case DType::Bool: return 1;
    case DType::U8: return UINT8_MAX;
    case DType::I8: return INT8_MAX;
    case DType::I16: return INT16_MAX;
    case DType::I32: return INT32_MAX;
    case DType::I64: return INT64_MAX;
    default: throw std::invalid_argument("intMax of non-integer dtype " + std::string(dtypeName(t)));
  }
}

const FloatFormat& floatFormat(DType t) {
  switch (t) {
    case DType::F8E4M3: return kF8E4M3;
    case DType::F8E5M2: return kF8E5M2;
    case DType::F16: return kF16;
    case DType::BF16: return kBF16;
    case DType::TF32: return kTF32;
    case DType::F32: return kF32;
    case DType::F64: return kF64;
    default: throw std::invalid_argument("not a float dtype: " + std::string(dtypeName(t)));
  }
}

namespace {

// The constants of every float format, computed once: callers ask per cell.
struct Constants {
  bool isFloat = false;
  double eps, unitRoundoff, minNormal, minSubnormal, maxFinite;
};

Constants constantsOf(const FloatFormat& f) {
  Constants c;
  c.isFloat = true;
  c.eps = std::ldexp(1.0, 1 - f.precision);
  c.unitRoundoff = std::ldexp(1.0, -f.precision);
  c.minNormal = std::ldexp(1.0, f.emin);
  c.minSubnormal = std::ldexp(1.0, f.emin - f.precision + 1);
  // Largest significand: all ones, less one where the all-ones pattern is the fn-format NaN.
  double significand = std::ldexp(1.0, f.precision) - (f.finiteOnly ? 2.0 : 1.0);
  c.maxFinite = std::ldexp(significand, f.emax - f.precision + 1);
  return c;
}

const Constants& constants(DType t) {
  static const std::array<Constants, kDTypeCount> table = [] {
    std::array<Constants, kDTypeCount> all{};
    for (std::size_t i = 0; i < all.size(); ++i)
      if (isFloat(static_cast<DType>(i))) all[i] = constantsOf(floatFormat(static_cast<DType>(i)));
    return all;
  }();
  const Constants& c = table[index(t)];
  if (!c.isFloat) floatFormat(t);  // throws: not a float format
  return c;
}

}  // namespace

double eps(DType t) { return constants(t).eps; }

double unitRoundoff(DType t) { return constants(t).unitRoundoff; }

double minNormal(DType t) { return constants(t).minNormal; }

double minSubnormal(DType t) { return constants(t).minSubnormal; }

double maxFinite(DType t) { return constants(t).maxFinite; }

// reference::ulp with ilogb from the exponent field (|x| >= minNormal is a normal double) and
// the power of two from its bits.
double ulp(DType t, double x) {
  const FloatFormat& f = floatFormat(t);
  if (!std::isfinite(x)) return std::numeric_limits<double>::quiet_NaN();
  double a = std::fabs(x);
  if (a < minNormal(t)) return minSubnormal(t);
  int e = std::min(bits::field(bits::of(a)) - 1023, f.emax);
  return bits::pow2(e - f.precision + 1);
}

}  // namespace kc::numerics
