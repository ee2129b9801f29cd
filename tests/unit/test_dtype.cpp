// Hand-checked facts about the dtypes: names, sizes, format constants, and rounding, encoding
// and ulp distances at known points. test_dtype_exhaustive.cpp checks every pattern.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "stdlib/numerics/dtype.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/numerics/rounding.h"

using namespace kc::numerics;

namespace {
const double kInf = std::numeric_limits<double>::infinity();
}

TEST_CASE("dtype codes follow the kernel ABI and TF32 follows F64", "[dtype]") {
  CHECK(static_cast<int>(DType::Bool) == 0);
  CHECK(static_cast<int>(DType::I64) == 5);
  CHECK(static_cast<int>(DType::F8E4M3) == 6);
  CHECK(static_cast<int>(DType::BF16) == 9);
  CHECK(static_cast<int>(DType::F64) == 11);
  CHECK(static_cast<int>(DType::TF32) == 12);
}

TEST_CASE("dtype names round-trip and unknown names are rejected", "[dtype]") {
  for (int i = 0; i < kDTypeCount; ++i) {
    auto t = static_cast<DType>(i);
    CHECK(parseDType(dtypeName(t)) == t);
  }
  CHECK(parseDType("f32") == DType::F32);
  CHECK(parseDType("bf16") == DType::BF16);
  CHECK(parseDType("f8e4m3") == DType::F8E4M3);
  CHECK(parseDType("f8e5m2") == DType::F8E5M2);
  CHECK(parseDType("tf32") == DType::TF32);
  CHECK(parseDType("i32") == DType::I32);
  CHECK(parseDType("u8") == DType::U8);
  CHECK(parseDType("bool") == DType::Bool);
  CHECK_FALSE(parseDType("F32").has_value());
  CHECK_FALSE(parseDType("float").has_value());
  CHECK_FALSE(parseDType("").has_value());
}

TEST_CASE("dtype sizes and classes", "[dtype]") {
  CHECK(sizeBytes(DType::Bool) == 1);
  CHECK(sizeBytes(DType::I16) == 2);
  CHECK(sizeBytes(DType::F8E5M2) == 1);
  CHECK(sizeBytes(DType::BF16) == 2);
  CHECK(sizeBytes(DType::TF32) == 4);
  CHECK(sizeBytes(DType::F64) == 8);
  CHECK(isFloat(DType::TF32));
  CHECK_FALSE(isFloat(DType::I8));
  CHECK(isInteger(DType::U8));
  CHECK_FALSE(isInteger(DType::Bool));
  CHECK_FALSE(isSigned(DType::U8));
  CHECK(isSigned(DType::I8));
  CHECK(isSigned(DType::F8E4M3));
  CHECK(intMin(DType::I8) == -128);
  CHECK(intMax(DType::U8) == 255);
  CHECK(intMax(DType::Bool) == 1);
  CHECK_THROWS_AS(intMax(DType::F32), std::invalid_argument);
  CHECK_THROWS_AS(floatFormat(DType::I32), std::invalid_argument);
}

TEST_CASE("float format constants", "[dtype]") {
  CHECK(eps(DType::F32) == std::numeric_limits<float>::epsilon());
  CHECK(eps(DType::F64) == std::numeric_limits<double>::epsilon());
  CHECK(unitRoundoff(DType::BF16) == std::ldexp(1.0, -8));
  CHECK(eps(DType::TF32) == std::ldexp(1.0, -10));
  CHECK(eps(DType::F8E4M3) == 0.125);
  CHECK(eps(DType::F8E5M2) == 0.25);

  CHECK(maxFinite(DType::F8E4M3) == 448.0);
  CHECK(maxFinite(DType::F8E5M2) == 57344.0);
  CHECK(maxFinite(DType::F16) == 65504.0);
  CHECK(maxFinite(DType::BF16) == 0x1.FEp127);
  CHECK(maxFinite(DType::TF32) == 0x1.FFCp127);
  CHECK(maxFinite(DType::F32) == std::numeric_limits<float>::max());
  CHECK(maxFinite(DType::F64) == std::numeric_limits<double>::max());

  CHECK(minNormal(DType::F8E4M3) == std::ldexp(1.0, -6));
  CHECK(minSubnormal(DType::F8E4M3) == std::ldexp(1.0, -9));
  CHECK(minSubnormal(DType::F8E5M2) == std::ldexp(1.0, -16));
  CHECK(minSubnormal(DType::F16) == std::ldexp(1.0, -24));
  CHECK(minSubnormal(DType::BF16) == std::ldexp(1.0, -133));
  CHECK(minNormal(DType::F32) == std::numeric_limits<float>::min());
  CHECK(minSubnormal(DType::F32) == std::numeric_limits<float>::denorm_min());
  CHECK(minSubnormal(DType::F64) == std::numeric_limits<double>::denorm_min());
}

TEST_CASE("ulp is the spacing of the binade of |x|", "[dtype]") {
  CHECK(ulp(DType::F32, 1.0) == std::ldexp(1.0, -23));
  CHECK(ulp(DType::F32, 1.999) == std::ldexp(1.0, -23));
  CHECK(ulp(DType::F32, 2.0) == std::ldexp(1.0, -22));
  CHECK(ulp(DType::F32, -3.0) == std::ldexp(1.0, -22));
  CHECK(ulp(DType::F32, 0.0) == std::ldexp(1.0, -149));
  CHECK(ulp(DType::F16, 1e-6) == std::ldexp(1.0, -24));  // subnormal range
  CHECK(ulp(DType::F16, 65504.0) == 32.0);
  CHECK(ulp(DType::F16, 1e6) == 32.0);                  // beyond max: the top binade
  CHECK(ulp(DType::F8E4M3, 448.0) == 32.0);
  CHECK(ulp(DType::BF16, 1.0) == std::ldexp(1.0, -7));
  CHECK(std::isnan(ulp(DType::F32, kInf)));
  CHECK(std::isnan(ulp(DType::F32, std::nan(""))));
}

TEST_CASE("roundTo: ties to even, subnormals, signed zero", "[dtype]") {
  // f16 at 1: spacing 2^-10.
  CHECK(roundTo(DType::F16, 1.0 + std::ldexp(1.0, -11)) == 1.0);  // tie, 1 is even
  CHECK(roundTo(DType::F16, 1.0 + 3 * std::ldexp(1.0, -11)) == 1.0 + std::ldexp(1.0, -9));
  CHECK(roundTo(DType::F16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)) ==
        1.0 + std::ldexp(1.0, -10));
  CHECK(roundTo(DType::BF16, 1.00390625) == 1.0);  // 1 + 2^-8: tie to even
  CHECK(roundTo(DType::BF16, 1.01171875) == 1.015625);  // 1 + 3*2^-8: tie to 1 + 2^-6
  CHECK(roundTo(DType::F32, 0.1) == static_cast<double>(0.1f));
  CHECK(roundTo(DType::TF32, 1.0 + std::ldexp(1.0, -11)) == 1.0);
  // Subnormal f16: min subnormal 2^-24; half of it is a tie with zero, which is even.
  CHECK(roundTo(DType::F16, std::ldexp(1.0, -25)) == 0.0);
  CHECK(roundTo(DType::F16, std::ldexp(1.5, -25)) == std::ldexp(1.0, -24));
  CHECK(roundTo(DType::F16, std::ldexp(3.0, -25)) == std::ldexp(1.0, -23));  // tie: 2 is even
  double negZero = roundTo(DType::F16, -std::ldexp(1.0, -26));
  CHECK(negZero == 0.0);
  CHECK(std::signbit(negZero));
  CHECK(std::signbit(roundTo(DType::F32, -0.0)));
  CHECK(std::isnan(roundTo(DType::BF16, std::nan(""))));
  CHECK(roundTo(DType::F64, 0.1) == 0.1);
}

TEST_CASE("roundTo: overflow of IEEE formats", "[dtype]") {
  // f16: max 65504, ulp 32: 65504 + 16 is a tie that rounds to the even 65536, i.e. overflows.
  CHECK(roundTo(DType::F16, 65519.99) == 65504.0);
  CHECK(roundTo(DType::F16, 65520.0) == kInf);
  CHECK(roundTo(DType::F16, -1e9) == -kInf);
  CHECK(roundTo(DType::F16, kInf) == kInf);
  CHECK(roundTo(DType::F16, 1e9, Overflow::Saturate) == 65504.0);
  CHECK(roundTo(DType::F16, -kInf, Overflow::Saturate) == -65504.0);
  CHECK(roundTo(DType::F8E5M2, 61439.0) == 57344.0);
  CHECK(roundTo(DType::F8E5M2, 61440.0) == kInf);
  CHECK(roundTo(DType::F32, 1e39) == kInf);
}

TEST_CASE("roundTo: f8e4m3fn per OCP, with and without saturation", "[dtype]") {
  CHECK(roundTo(DType::F8E4M3, 448.0) == 448.0);
  CHECK(roundTo(DType::F8E4M3, 464.0) == 448.0);  // tie between 448 (even) and 480
  CHECK(std::isnan(roundTo(DType::F8E4M3, 464.0001)));
  CHECK(std::isnan(roundTo(DType::F8E4M3, kInf)));  // no Inf in e4m3fn
  CHECK(roundTo(DType::F8E4M3, 464.0001, Overflow::Saturate) == 448.0);
  CHECK(roundTo(DType::F8E4M3, -1e6, Overflow::Saturate) == -448.0);
  CHECK(roundTo(DType::F8E4M3, -kInf, Overflow::Saturate) == -448.0);
  CHECK(std::isnan(roundTo(DType::F8E4M3, std::nan(""), Overflow::Saturate)));
  CHECK(roundTo(DType::F8E4M3, 17.0) == 16.0);  // spacing 2 above 16: tie to even 16
  CHECK(roundTo(DType::F8E4M3, 19.0) == 20.0);  // tie between 18 and 20: 20 is even
}

TEST_CASE("roundTo: integers and bool", "[dtype]") {
  CHECK(roundTo(DType::I8, 2.5) == 2.0);
  CHECK(roundTo(DType::I8, 3.5) == 4.0);
  CHECK(roundTo(DType::I8, -2.5) == -2.0);
  CHECK(roundTo(DType::I8, 300.0) == 127.0);
  CHECK(roundTo(DType::I8, -300.0) == -128.0);
  CHECK(roundTo(DType::U8, -1.0) == 0.0);
  CHECK(roundTo(DType::I32, std::nan("")) == 0.0);
  CHECK_FALSE(std::signbit(roundTo(DType::I32, -0.25)));
  CHECK(roundTo(DType::I64, 1e30) == 0x1.FFFFFFFFFFFFFp62);
  CHECK(roundTo(DType::Bool, -0.0) == 0.0);
  CHECK(roundTo(DType::Bool, 0.1) == 1.0);
  CHECK(roundTo(DType::Bool, std::nan("")) == 1.0);
}

TEST_CASE("encode and decode at known patterns", "[dtype]") {
  CHECK(encode(DType::F16, 1.0) == 0x3C00);
  CHECK(encode(DType::F16, -2.0) == 0xC000);
  CHECK(encode(DType::F16, 65504.0) == 0x7BFF);
  CHECK(encode(DType::F16, kInf) == 0x7C00);
  CHECK(encode(DType::F16, std::ldexp(1.0, -24)) == 0x0001);
  CHECK(encode(DType::F16, -0.0) == 0x8000);
  CHECK(encode(DType::F16, std::nan("")) == 0x7E00);
  CHECK(encode(DType::BF16, 1.0) == 0x3F80);
  CHECK(encode(DType::BF16, -kInf) == 0xFF80);
  CHECK(encode(DType::F8E4M3, 448.0) == 0x7E);
  CHECK(encode(DType::F8E4M3, 1.0) == 0x38);
  CHECK(encode(DType::F8E4M3, std::nan("")) == 0x7F);
  CHECK(encode(DType::F8E4M3, -1e6) == 0xFF);  // non-saturating overflow: NaN
  CHECK(encode(DType::F8E4M3, -1e6, Overflow::Saturate) == 0xFE);
  CHECK(encode(DType::F8E4M3, std::ldexp(1.0, -9)) == 0x01);
  CHECK(encode(DType::F8E5M2, 57344.0) == 0x7B);
  CHECK(encode(DType::F8E5M2, 1.0) == 0x3C);
  CHECK(encode(DType::F8E5M2, kInf) == 0x7C);
  CHECK(encode(DType::F32, 1.0) == 0x3F800000);
  CHECK(encode(DType::TF32, 1.0 + std::ldexp(1.0, -10)) == 0x3F802000);
  CHECK(encode(DType::TF32, 1.0 + std::ldexp(1.0, -12)) == 0x3F800000);
  CHECK(encode(DType::F64, 1.0) == 0x3FF0000000000000ULL);
  CHECK(encode(DType::F64, -std::numeric_limits<double>::denorm_min()) == 0x8000000000000001ULL);

  CHECK(decode(DType::F16, 0x3555) == 0x1.554p-2);
  CHECK(decode(DType::F8E4M3, 0x7E) == 448.0);
  CHECK(std::isnan(decode(DType::F8E4M3, 0xFF)));
  CHECK(decode(DType::F8E4M3, 0x78) == 256.0);  // exponent field 1111 is normal in e4m3fn
  CHECK(decode(DType::F8E5M2, 0xFC) == -kInf);
  CHECK(decode(DType::TF32, 0x3F802000) == 1.0 + std::ldexp(1.0, -10));
  CHECK(decode(DType::F64, 0x7FEFFFFFFFFFFFFFULL) == std::numeric_limits<double>::max());
  CHECK_THROWS_AS(decode(DType::F16, 0x10000), std::invalid_argument);
  CHECK_THROWS_AS(encode(DType::I32, 1.0), std::invalid_argument);
}

TEST_CASE("ulpDistance counts representable values", "[dtype]") {
  CHECK(ulpDistance(DType::F32, 1.0, 1.0) == 0);
  CHECK(ulpDistance(DType::F32, 0.0, -0.0) == 0);
  CHECK(ulpDistance(DType::F32, 1.0, 1.0 + std::ldexp(1.0, -23)) == 1);
  CHECK(ulpDistance(DType::F32, 1.0, 2.0) == (1u << 23));
  CHECK(ulpDistance(DType::F32, 2.0, 1.0) == (1u << 23));
  CHECK(ulpDistance(DType::F32, -std::ldexp(1.0, -149), std::ldexp(1.0, -149)) == 2);
  CHECK(ulpDistance(DType::F16, 65504.0, kInf) == 1);
  CHECK(ulpDistance(DType::F16, -kInf, kInf) == 2 * 0x7C00);
  CHECK(ulpDistance(DType::TF32, 1.0, 2.0) == (1u << 10));
  CHECK(ulpDistance(DType::BF16, 1.0, 1.0 + std::ldexp(1.0, -9)) == 0);  // both round to 1
  CHECK(ulpDistance(DType::F64, -std::numeric_limits<double>::max(),
                    std::numeric_limits<double>::max()) == 2 * 0x7FEFFFFFFFFFFFFFULL);
  CHECK(ulpDistance(DType::F32, std::nan(""), 1.0) == kUlpDistanceNaN);
  CHECK(ulpDistance(DType::F32, 1.0, std::nan("")) == kUlpDistanceNaN);
  CHECK(ulpDistance(DType::F32, std::nan(""), -std::nan("")) == 0);
  CHECK(ulpDistance(DType::F8E4M3, 448.0, 1e4) == kUlpDistanceNaN);  // overflow is NaN
}
