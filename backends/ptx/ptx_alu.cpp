// PTX arithmetic on register bits (ptx_alu.h). Built with -frounding-math: the directed
// rounding modifiers switch the FPU's rounding mode around one operation.
#include "backends/ptx/ptx_alu.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

#include "stdlib/numerics/float_bits.h"

namespace kc::ptx {

namespace {

float f32(uint64_t b) {
  uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

double half(Type t, uint64_t b) {
  return numerics::decode(t == Type::F16 ? numerics::DType::F16 : numerics::DType::BF16, b & 0xffff);
}
uint64_t toHalf(Type t, double v) {
  return numerics::encode(t == Type::F16 ? numerics::DType::F16 : numerics::DType::BF16, v);
}

float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// Runs f under the rounding mode of `r` (.rn or none: to nearest).
struct RoundingScope {
  int saved = FE_TONEAREST;
  bool set = false;
  // The FPU rounds to nearest whenever the interpreter runs; only the directed modes switch.
  explicit RoundingScope(Round r) {
    if (r != Round::Rz && r != Round::Rm && r != Round::Rp) return;
    saved = std::fegetround();
    set = true;
    int mode = FE_TONEAREST;
    if (r == Round::Rz) mode = FE_TOWARDZERO;
    if (r == Round::Rm) mode = FE_DOWNWARD;
    if (r == Round::Rp) mode = FE_UPWARD;
    if (mode != saved) std::fesetround(mode);
  }
  ~RoundingScope() {
    if (set) std::fesetround(saved);
  }
};

// Integer rounding of a float value (cvt's .rni .rzi .rmi .rpi).
double roundInteger(Round r, double x) {
  switch (r) {
    case Round::Rni: return std::nearbyint(x);  // the FPU's default: to nearest even
    case Round::Rzi: return std::trunc(x);
    case Round::Rmi: return std::floor(x);
    case Round::Rpi: return std::ceil(x);
    default: return x;
  }
}

template <class F>
F fminPtx(F a, F b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;  // min(-0, +0) = -0
  return a < b ? a : b;
}
template <class F>
F fmaxPtx(F a, F b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

uint64_t computeF32(const Instr& in, uint64_t ab, uint64_t bb, uint64_t cb) {
  float a = f32(ab), b = f32(bb), c = f32(cb);
  if (in.ftz) a = flush(a), b = flush(b), c = flush(c);
  float d = 0;
  {
    RoundingScope rs(in.round);
    volatile float va = a, vb = b, vc = c;  // no folding across the mode switch
    switch (in.op) {
      case Op::Add: d = va + vb; break;
      case Op::Sub: d = va - vb; break;
      case Op::Mul: d = va * vb; break;
      case Op::Fma:
      case Op::Mad: d = std::fma(static_cast<float>(va), static_cast<float>(vb), static_cast<float>(vc)); break;
      case Op::Div: d = va / vb; break;
      case Op::Sqrt: d = in.approx ? static_cast<float>(std::sqrt(static_cast<double>(a))) : std::sqrt(static_cast<float>(va)); break;
      case Op::Rcp: d = in.approx ? static_cast<float>(1.0 / static_cast<double>(a)) : 1.0f / va; break;
      case Op::Rsqrt: d = static_cast<float>(1.0 / std::sqrt(static_cast<double>(a))); break;
      case Op::Ex2: d = static_cast<float>(std::exp2(static_cast<double>(a))); break;
      case Op::Lg2: d = static_cast<float>(std::log2(static_cast<double>(a))); break;
      case Op::Sin: d = static_cast<float>(std::sin(static_cast<double>(a))); break;
      case Op::Cos: d = static_cast<float>(std::cos(static_cast<double>(a))); break;
      case Op::Tanh: d = static_cast<float>(std::tanh(static_cast<double>(a))); break;
      case Op::Min: d = fminPtx(a, b); break;
      case Op::Max: d = fmaxPtx(a, b); break;
      case Op::Abs: d = std::fabs(a); break;
      case Op::Neg: d = -a; break;
      case Op::Copysign: d = std::copysign(b, a); break;
      default: throw AluError("not an f32 operation");
    }
  }
  if (in.ftz) d = flush(d);
  if (in.sat) d = std::isnan(d) ? 0.0f : std::fmin(std::fmax(d, 0.0f), 1.0f);
  return bits(d);
}

uint64_t computeF64(const Instr& in, uint64_t ab, uint64_t bb, uint64_t cb) {
  double a = f64(ab), b = f64(bb), c = f64(cb), d = 0;
  RoundingScope rs(in.round);
  volatile double va = a, vb = b, vc = c;
  switch (in.op) {
    case Op::Add: d = va + vb; break;
    case Op::Sub: d = va - vb; break;
    case Op::Mul: d = va * vb; break;
    case Op::Fma:
    case Op::Mad: d = std::fma(static_cast<double>(va), static_cast<double>(vb), static_cast<double>(vc)); break;
    case Op::Div: d = va / vb; break;
    case Op::Sqrt: d = std::sqrt(static_cast<double>(va)); break;
    case Op::Rcp: d = 1.0 / va; break;
    case Op::Rsqrt: d = 1.0 / std::sqrt(a); break;
    case Op::Min: d = fminPtx(a, b); break;
    case Op::Max: d = fmaxPtx(a, b); break;
    case Op::Abs: d = std::fabs(a); break;
    case Op::Neg: d = -a; break;
    case Op::Copysign: d = std::copysign(b, a); break;
    default: throw AluError("not an f64 operation");
  }
  return bits(d);
}

// f16 / bf16 arithmetic: in double, rounded once to the type.
uint64_t computeHalf(const Instr& in, uint64_t ab, uint64_t bb, uint64_t cb) {
  double a = half(in.type, ab), b = half(in.type, bb), c = half(in.type, cb), d = 0;
  switch (in.op) {
    case Op::Add: d = a + b; break;
    case Op::Sub: d = a - b; break;
    case Op::Mul: d = a * b; break;
    case Op::Fma: d = std::fma(a, b, c); break;
    case Op::Min: d = fminPtx(a, b); break;
    case Op::Max: d = fmaxPtx(a, b); break;
    case Op::Neg: return (ab ^ 0x8000) & 0xffff;
    case Op::Abs: return ab & 0x7fff;
    case Op::Ex2: d = std::exp2(a); break;
    case Op::Tanh: d = std::tanh(a); break;
    default: throw AluError("not an f16/bf16 operation");
  }
  if (in.sat) d = std::isnan(d) ? 0.0 : std::fmin(std::fmax(d, 0.0), 1.0);
  if (in.round != Round::None && in.round != Round::Rn) throw AluError("f16/bf16 arithmetic only rounds to nearest here");
  return toHalf(in.type, d);
}

uint64_t computeInt(const Instr& in, uint64_t a, uint64_t b, uint64_t c) {
  const Type t = in.type;
  const int n = typeBits(t);
  const bool s = isSigned(t);
  const int64_t sa = asSigned(t, a), sb = asSigned(t, b);
  const uint64_t ua = truncateTo(t, a), ub = truncateTo(t, b);
  auto mulFull = [&](int64_t x, int64_t y, uint64_t ux, uint64_t uy) -> unsigned __int128 {
    return s ? static_cast<unsigned __int128>(static_cast<__int128>(x) * y) : static_cast<unsigned __int128>(ux) * uy;
  };
  switch (in.op) {
    case Op::Add: {
      if (in.sat && t == Type::S32) {
        int64_t r = sa + sb;
        return truncateTo(t, static_cast<uint64_t>(std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX)));
      }
      return truncateTo(t, a + b);
    }
    case Op::Sub: return truncateTo(t, a - b);
    case Op::Mul:
    case Op::Mad: {
      unsigned __int128 p = mulFull(sa, sb, ua, ub);
      uint64_t r;
      Type rt = t;
      if (in.width == Width::Hi) {
        r = static_cast<uint64_t>(p >> n);
      } else if (in.width == Width::Wide) {
        r = static_cast<uint64_t>(p);
        rt = n == 16 ? (s ? Type::S32 : Type::U32) : (s ? Type::S64 : Type::U64);
      } else {
        r = static_cast<uint64_t>(p);
      }
      if (in.op == Op::Mad) r += c;
      return truncateTo(rt, r);
    }
    case Op::Div:
      if (ub == 0) return truncateTo(t, ~uint64_t{0});  // the hardware's quotient of a division by zero
      return truncateTo(t, s ? static_cast<uint64_t>(sb == -1 ? -sa : sa / sb) : ua / ub);
    case Op::Rem:
      if (ub == 0) return truncateTo(t, a);
      return truncateTo(t, s ? static_cast<uint64_t>(sb == -1 ? 0 : sa % sb) : ua % ub);
    case Op::Abs: return truncateTo(t, static_cast<uint64_t>(sa < 0 ? -sa : sa));
    case Op::Neg: return truncateTo(t, 0 - a);
    case Op::Min: return truncateTo(t, s ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(ua, ub));
    case Op::Max: return truncateTo(t, s ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(ua, ub));
    case Op::And: return truncateTo(t, a & b);
    case Op::Or: return truncateTo(t, a | b);
    case Op::Xor: return truncateTo(t, a ^ b);
    case Op::Not: return truncateTo(t, ~a);
    case Op::Shl: {
      uint64_t k = static_cast<uint32_t>(b);
      return k >= static_cast<uint64_t>(n) ? 0 : truncateTo(t, ua << k);
    }
    case Op::Shr: {
      uint64_t k = static_cast<uint32_t>(b);
      if (s) return truncateTo(t, static_cast<uint64_t>(sa >> std::min<uint64_t>(k, static_cast<uint64_t>(n - 1))));
      return k >= static_cast<uint64_t>(n) ? 0 : ua >> k;
    }
    case Op::Popc: return static_cast<uint64_t>(__builtin_popcountll(ua));
    case Op::Clz: return ua == 0 ? static_cast<uint64_t>(n) : static_cast<uint64_t>(__builtin_clzll(ua) - (64 - n));
    case Op::Brev: {
      uint64_t r = 0;
      for (int i = 0; i < n; ++i)
        if (ua >> i & 1) r |= uint64_t{1} << (n - 1 - i);
      return r;
    }
    case Op::Bfe: {
      uint64_t pos = b & 0xff, len = c & 0xff;
      if (len == 0) return 0;
      uint64_t field = pos >= static_cast<uint64_t>(n) ? 0 : ua >> pos;
      if (len < 64) field &= (uint64_t{1} << len) - 1;
      bool sign = s && len > 0 && (pos + len - 1 < static_cast<uint64_t>(n) ? (ua >> (pos + len - 1) & 1) : (ua >> (n - 1) & 1));
      if (sign && len < 64) field |= ~((uint64_t{1} << len) - 1);
      return truncateTo(t, field);
    }
    default: throw AluError("not an integer operation");
  }
}

}  // namespace

uint64_t truncateTo(Type t, uint64_t b) {
  int n = typeBits(t);
  if (n >= 64 || n == 0) return b;
  return b & ((uint64_t{1} << n) - 1);
}

int64_t asSigned(Type t, uint64_t b) {
  int n = typeBits(t);
  if (n >= 64 || n == 0) return static_cast<int64_t>(b);
  if (!isSigned(t)) return static_cast<int64_t>(truncateTo(t, b));
  uint64_t m = uint64_t{1} << (n - 1);
  uint64_t v = truncateTo(t, b);
  return static_cast<int64_t>((v ^ m) - m);
}

uint64_t compute(const Instr& in, uint64_t a, uint64_t b, uint64_t c) {
  switch (in.type) {
    case Type::F32: return computeF32(in, a, b, c);
    case Type::F64: return computeF64(in, a, b, c);
    case Type::F16:
    case Type::BF16: return computeHalf(in, a, b, c);
    case Type::F16x2:
    case Type::BF16x2: {
      Instr lane = in;
      lane.type = in.type == Type::F16x2 ? Type::F16 : Type::BF16;
      uint64_t lo = computeHalf(lane, a & 0xffff, b & 0xffff, c & 0xffff);
      uint64_t hi = computeHalf(lane, a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff);
      return lo | hi << 16;
    }
    case Type::Pred: {
      switch (in.op) {
        case Op::And: return a & b & 1;
        case Op::Or: return (a | b) & 1;
        case Op::Xor: return (a ^ b) & 1;
        case Op::Not: return ~a & 1;
        default: throw AluError("not a predicate operation");
      }
    }
    default: return computeInt(in, a, b, c);
  }
}

bool compare(const Instr& in, uint64_t ab, uint64_t bb) {
  if (isFloat(in.type)) {
    double a, b;
    if (in.type == Type::F32) {
      float fa = f32(ab), fb = f32(bb);
      if (in.ftz) fa = flush(fa), fb = flush(fb);
      a = fa, b = fb;
    } else if (in.type == Type::F64) {
      a = f64(ab), b = f64(bb);
    } else {
      a = half(in.type, ab), b = half(in.type, bb);
    }
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (in.cmp) {
      case Cmp::Eq: return !unordered && a == b;
      case Cmp::Ne: return !unordered && a != b;
      case Cmp::Lt: return !unordered && a < b;
      case Cmp::Le: return !unordered && a <= b;
      case Cmp::Gt: return !unordered && a > b;
      case Cmp::Ge: return !unordered && a >= b;
      case Cmp::Equ: return unordered || a == b;
      case Cmp::Neu: return unordered || a != b;
      case Cmp::Ltu: return unordered || a < b;
      case Cmp::Leu: return unordered || a <= b;
      case Cmp::Gtu: return unordered || a > b;
      case Cmp::Geu: return unordered || a >= b;
      case Cmp::Num: return !unordered;
      case Cmp::Nan: return unordered;
      default: throw AluError("no comparison");
    }
  }
  int64_t sa = asSigned(in.type, ab), sb = asSigned(in.type, bb);
  uint64_t ua = truncateTo(in.type, ab), ub = truncateTo(in.type, bb);
  bool s = isSigned(in.type);
  switch (in.cmp) {
    case Cmp::Eq: return ua == ub;
    case Cmp::Ne: return ua != ub;
    case Cmp::Lt: return s ? sa < sb : ua < ub;
    case Cmp::Le: return s ? sa <= sb : ua <= ub;
    case Cmp::Gt: return s ? sa > sb : ua > ub;
    case Cmp::Ge: return s ? sa >= sb : ua >= ub;
    case Cmp::Lo: return ua < ub;
    case Cmp::Ls: return ua <= ub;
    case Cmp::Hi: return ua > ub;
    case Cmp::Hs: return ua >= ub;
    default: throw AluError("no integer comparison");
  }
}

bool testClass(const Instr& in, uint64_t ab) {
  double a = in.type == Type::F32 ? static_cast<double>(f32(ab)) : f64(ab);
  switch (in.cmp) {
    case Cmp::Num: return std::isfinite(a);
    case Cmp::Nan: return std::isnan(a);
    case Cmp::Equ: return std::isinf(a);
    default: return false;
  }
}

uint64_t floatImmediate(Type t, double v) {
  if (t == Type::F32) return bits(static_cast<float>(v));
  if (t == Type::F64) return bits(v);
  if (t == Type::F16 || t == Type::BF16) return toHalf(t, v);
  return bits(v);
}

uint64_t convert(const Instr& in, uint64_t a) {
  const Type d = in.type, s = in.srcType;
  const bool df = isFloat(d), sf = isFloat(s);
  if (!df && !sf) {  // integer to integer: extend by the source's sign, saturate on .sat
    int64_t v = asSigned(s, a);
    uint64_t u = truncateTo(s, a);
    if (in.sat) {
      int n = typeBits(d);
      if (isSigned(d)) {
        int64_t lo = n >= 64 ? INT64_MIN : -(int64_t{1} << (n - 1)), hi = n >= 64 ? INT64_MAX : (int64_t{1} << (n - 1)) - 1;
        if (!isSigned(s) && u > static_cast<uint64_t>(hi)) return truncateTo(d, static_cast<uint64_t>(hi));
        return truncateTo(d, static_cast<uint64_t>(std::min(std::max(v, lo), hi)));
      }
      uint64_t hi = n >= 64 ? UINT64_MAX : (uint64_t{1} << n) - 1;
      if (isSigned(s) && v < 0) return 0;
      return std::min(isSigned(s) ? static_cast<uint64_t>(v) : u, hi);
    }
    return truncateTo(d, isSigned(s) ? static_cast<uint64_t>(v) : u);
  }
  // The source's value, exactly, in long double for 64-bit integers, else double.
  long double x;
  if (s == Type::F32) x = in.ftz ? flush(f32(a)) : f32(a);
  else if (s == Type::F64) x = f64(a);
  else if (s == Type::F16 || s == Type::BF16) x = half(s, a);
  else if (isSigned(s)) x = static_cast<long double>(asSigned(s, a));
  else x = static_cast<long double>(truncateTo(s, a));
  if (df) {
    uint64_t r;
    if (d == Type::F16 || d == Type::BF16) {
      if (in.round == Round::Rz && d == Type::BF16 && s == Type::F32)
        r = std::isnan(static_cast<double>(x)) ? 0x7fff : (a >> 16) & 0xffff;
      else if (in.round != Round::None && in.round != Round::Rn && in.round != Round::Rni)
        throw AluError("cvt to f16/bf16 only rounds to nearest or (bf16 from f32) toward zero here");
      else
        r = toHalf(d, static_cast<double>(roundInteger(in.round, static_cast<double>(x))));
    } else {
      bool integerRound = in.round == Round::Rni || in.round == Round::Rzi || in.round == Round::Rmi || in.round == Round::Rpi;
      RoundingScope rs(integerRound ? Round::Rn : in.round);
      volatile long double vx = x;
      if (d == Type::F32) {
        float f = static_cast<float>(vx);
        if (integerRound) f = static_cast<float>(roundInteger(in.round, static_cast<double>(f)));
        if (in.ftz) f = flush(f);
        if (in.sat) f = std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f);
        r = bits(f);
      } else {
        double g = static_cast<double>(vx);
        if (integerRound) g = roundInteger(in.round, g);
        if (in.sat) g = std::isnan(g) ? 0.0 : std::fmin(std::fmax(g, 0.0), 1.0);
        r = bits(g);
      }
    }
    return r;
  }
  // Float to integer: rounded by the modifier, clamped to the destination's range, NaN -> 0.
  double v = static_cast<double>(x);
  if (std::isnan(v)) return 0;
  v = roundInteger(in.round == Round::None ? Round::Rzi : in.round, v);
  int n = typeBits(d);
  if (isSigned(d)) {
    long double lo = -std::ldexp(1.0L, n - 1), hi = std::ldexp(1.0L, n - 1) - 1;
    long double c = std::min(std::max(static_cast<long double>(v), lo), hi);
    return truncateTo(d, static_cast<uint64_t>(static_cast<int64_t>(c)));
  }
  long double hi = std::ldexp(1.0L, n) - 1;
  long double c = std::min(std::max(static_cast<long double>(v), 0.0L), hi);
  return truncateTo(d, static_cast<uint64_t>(c));
}

}  // namespace kc::ptx
