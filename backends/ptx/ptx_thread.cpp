// The per-thread half of the CTA interpreter (ptx_cta.h): operands, memory accesses with
// their bounds and race checks, atomics, and every instruction that one thread executes on
// its own; the scheduling and the warp-wide instructions are ptx_cta.cpp's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "backends/ptx/ptx_alu.h"
#include "backends/ptx/ptx_cta.h"

namespace kc::ptx {

namespace {

constexpr uint32_t kWarp = 32;

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

uint64_t Cta::special(Special s, uint32_t t) const {
  const Dim3& b = L_.block;
  switch (s) {
    case Special::TidX: return t % b.x;
    case Special::TidY: return t / b.x % b.y;
    case Special::TidZ: return t / (b.x * b.y);
    case Special::NtidX: return b.x;
    case Special::NtidY: return b.y;
    case Special::NtidZ: return b.z;
    case Special::CtaidX: return ctaid_.x;
    case Special::CtaidY: return ctaid_.y;
    case Special::CtaidZ: return ctaid_.z;
    case Special::NctaidX: return L_.grid.x;
    case Special::NctaidY: return L_.grid.y;
    case Special::NctaidZ: return L_.grid.z;
    case Special::Laneid: return t % kWarp;
    case Special::Warpid: return t / kWarp;
    case Special::Nwarpid: return (threads_ + kWarp - 1) / kWarp;
    case Special::Clock:
    case Special::Clock64: return L_.instructions;
    case Special::Globaltimer:
      return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now().time_since_epoch())
                                       .count());
    case Special::Smid: return 0;
    case Special::Lanemask: return (uint64_t{1} << (t % kWarp)) - 1;
  }
  return 0;
}

uint64_t Cta::value(const Operand& o, uint32_t t, Type type) {
  switch (o.kind) {
    case Operand::Kind::Reg: {
      uint64_t v = reg(t, o.reg);
      return o.negate ? (~v & 1) : v;
    }
    case Operand::Kind::Imm: return o.imm ? static_cast<uint64_t>(o.imm) : 0;
    case Operand::Kind::FImm:
      if (isFloat(type)) return floatImmediate(type, o.fimm);
      return static_cast<uint64_t>(o.imm);
    case Operand::Kind::Special: return special(o.special, t);
    case Operand::Kind::Symbol: {
      const Symbol& s = L_.module->symbols[static_cast<size_t>(o.symbol)];
      if (s.space == Space::Global || s.space == Space::Const) return L_.symbolAddress[static_cast<size_t>(o.symbol)];
      return static_cast<uint64_t>(s.offset);  // shared, local, param: the offset in its window
    }
    default: throw Fault("an operand of this kind has no value here");
  }
}

void Cta::setReg(const Operand& o, uint32_t t, uint64_t v) {
  if (o.kind == Operand::Kind::Sink) return;
  if (o.kind != Operand::Kind::Reg) throw Fault("the destination is not a register");
  reg(t, o.reg) = v;
}

uint64_t Cta::addressOf(const Operand& o, uint32_t t) {
  if (o.kind != Operand::Kind::Addr) return value(o, t, Type::U64);
  uint64_t base = 0;
  if (o.reg >= 0) base = reg(t, o.reg);
  if (o.symbol >= 0) {
    Operand s;
    s.kind = Operand::Kind::Symbol;
    s.symbol = o.symbol;
    base = value(s, t, Type::U64);
  }
  return base + static_cast<uint64_t>(o.imm);
}

void Cta::reportRace(const char* space, uint64_t address, const Instr& in, uint32_t t, const Race& r) {
  ++L_.races;
  if (!L_.race.empty()) return;
  const Instr& other = fn_.code[r.earlier.pc];
  uint32_t me = ctaLinear_ * threads_ + t;
  L_.race = std::string("data race on ") + space + " memory at " + hex(address) + ": " + threadName(me) + " " +
            (in.op == Op::Ld ? "reads" : "writes") + " it in " + where(in) + ", and " + threadName(r.earlier.thread) +
            (r.earlierWrite ? " wrote" : " read") + " it in " + other.text + " (line " + std::to_string(other.line) + ")" +
            (r.earlier.cta == ctaLinear_ ? " with no bar.sync between them" : " (another block: nothing orders them)");
}

uint8_t* Cta::memory(const Instr& in, uint32_t t, uint64_t address, size_t bytes, bool write, bool atomic) {
  Space space = in.space;
  auto* sharedBase = shared_.data();
  auto* localBase = local_.data();
  if (space == Space::Generic) {  // which window the address falls in
    auto a = reinterpret_cast<uint8_t*>(address);
    if (a >= sharedBase && a < sharedBase + L_.sharedBytes) {
      space = Space::Shared;
      address -= reinterpret_cast<uint64_t>(sharedBase);
    } else if (fn_.localBytes > 0 && a >= localBase && a < localBase + local_.size()) {
      space = Space::Local;
      address -= reinterpret_cast<uint64_t>(localBase) + static_cast<uint64_t>(fn_.localBytes) * t;
    } else {
      space = Space::Global;
    }
  }
  const char* verb = write ? "writes" : "reads";
  auto outside = [&](const std::string& what) -> Fault {
    return Fault("illegal memory access: " + threadName(ctaLinear_ * threads_ + t) + " " + verb + " " +
                 std::to_string(bytes) + " bytes at " + hex(address) + " in " + where(in) + ": " + what);
  };
  Access acc{ctaLinear_ * threads_ + t, ctaLinear_, epoch_, 0};
  acc.pc = static_cast<uint32_t>(&in - fn_.code.data());
  Race race;
  switch (space) {
    case Space::Shared:
      if (address + bytes > L_.sharedBytes || address + bytes < address)
        throw outside("outside the block's " + std::to_string(L_.sharedBytes) + " bytes of shared memory");
      if (L_.checkRaces && !atomic && (write ? sharedShadow_.write(address, acc, race) : sharedShadow_.read(address, acc, race)))
        reportRace("shared", address, in, t, race);
      return sharedBase + address;
    case Space::Local:
      if (address + bytes > static_cast<uint64_t>(fn_.localBytes)) throw outside("outside the thread's local memory");
      return localBase + static_cast<size_t>(fn_.localBytes) * t + address;
    case Space::Param:
      if (address + bytes > L_.params.size()) throw outside("outside the kernel's parameters");
      if (write) throw outside("a kernel's parameters are read-only");
      return L_.params.data() + address;
    default:
      if (!L_.memory->contains(address, bytes)) throw outside("outside every allocation");
      if (TouchHook* hook = L_.memory->touchHook()) {
        try {
          hook->touch(address, bytes);
        } catch (const std::runtime_error& e) {
          throw outside(e.what());
        }
      }
      if (L_.checkRaces && !atomic &&
          (write ? L_.globalShadow.write(address, acc, race) : L_.globalShadow.read(address, acc, race)))
        reportRace("global", address, in, t, race);
      return reinterpret_cast<uint8_t*>(address);
  }
}

uint64_t Cta::load(const Instr& in, uint32_t t, uint64_t address, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, memory(in, t, address, static_cast<size_t>(bytes), false, false), static_cast<size_t>(bytes));
  if (isSigned(in.type)) v = static_cast<uint64_t>(asSigned(in.type, v));
  return v;
}

void Cta::store(const Instr& in, uint32_t t, uint64_t address, int bytes, uint64_t v) {
  std::memcpy(memory(in, t, address, static_cast<size_t>(bytes), true, false), &v, static_cast<size_t>(bytes));
}

void Cta::atomic(const Instr& in, uint32_t t) {
  // atom: d, [a], b (, c for cas); red: [a], b.
  size_t at = in.op == Op::Atom ? 1 : 0;
  uint64_t address = addressOf(in.ops[at], t);
  int bytes = typeBits(in.type) / 8;
  uint8_t* p = memory(in, t, address, static_cast<size_t>(bytes), true, true);
  uint64_t old = 0;
  std::memcpy(&old, p, static_cast<size_t>(bytes));
  uint64_t b = value(in.ops[at + 1], t, in.type);
  uint64_t nv = old;
  Instr alu = in;
  alu.round = Round::None;
  switch (in.atom) {
    case AtomOp::Add: alu.op = Op::Add; nv = compute(alu, old, b, 0); break;
    case AtomOp::Min: alu.op = Op::Min; nv = compute(alu, old, b, 0); break;
    case AtomOp::Max: alu.op = Op::Max; nv = compute(alu, old, b, 0); break;
    case AtomOp::And: alu.op = Op::And; alu.type = Type::B64; nv = compute(alu, old, b, 0); break;
    case AtomOp::Or: alu.op = Op::Or; alu.type = Type::B64; nv = compute(alu, old, b, 0); break;
    case AtomOp::Xor: alu.op = Op::Xor; alu.type = Type::B64; nv = compute(alu, old, b, 0); break;
    case AtomOp::Exch: nv = b; break;
    case AtomOp::Cas: nv = truncateTo(in.type, old) == truncateTo(in.type, b) ? value(in.ops[at + 2], t, in.type) : old; break;
    case AtomOp::Inc: nv = truncateTo(in.type, old) >= truncateTo(in.type, b) ? 0 : old + 1; break;
    case AtomOp::Dec: nv = (old == 0 || truncateTo(in.type, old) > truncateTo(in.type, b)) ? b : old - 1; break;
    case AtomOp::None: break;
  }
  std::memcpy(p, &nv, static_cast<size_t>(bytes));
  if (in.op == Op::Atom) setReg(in.ops[0], t, truncateTo(in.type, old));
}

void Cta::execute(const Instr& in, uint32_t t) {
  const std::vector<Operand>& o = in.ops;
  const Type ty = in.type;
  switch (in.op) {
    case Op::Mov: {
      if (o[0].kind == Operand::Kind::Vec) {  // unpack: mov.b64 {%r1, %r2}, %rd1
        uint64_t v = value(o[1], t, ty);
        int w = typeBits(ty) / static_cast<int>(o[0].vec.size());
        for (size_t k = 0; k < o[0].vec.size(); ++k)
          if (o[0].vec[k] >= 0)
            reg(t, o[0].vec[k]) = (v >> (w * static_cast<int>(k))) & (w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1);
      } else if (o[1].kind == Operand::Kind::Vec) {  // pack
        int w = typeBits(ty) / static_cast<int>(o[1].vec.size());
        uint64_t v = 0;
        for (size_t k = 0; k < o[1].vec.size(); ++k) {
          uint64_t part = o[1].vec[k] >= 0 ? reg(t, o[1].vec[k]) : 0;
          if (w < 64) part &= (uint64_t{1} << w) - 1;
          v |= part << (w * static_cast<int>(k));
        }
        setReg(o[0], t, v);
      } else {
        setReg(o[0], t, ty == Type::Pred ? value(o[1], t, ty) & 1 : truncateTo(ty, value(o[1], t, ty)));
      }
      return;
    }
    case Op::Ld: {
      int bytes = typeBits(ty) / 8;
      uint64_t a = addressOf(o[1], t);
      if (o[0].kind == Operand::Kind::Vec) {
        for (size_t k = 0; k < o[0].vec.size(); ++k) {
          uint64_t v = load(in, t, a + static_cast<uint64_t>(bytes) * k, bytes);
          if (o[0].vec[k] >= 0) reg(t, o[0].vec[k]) = v;
        }
      } else {
        setReg(o[0], t, load(in, t, a, bytes));
      }
      return;
    }
    case Op::St: {
      int bytes = typeBits(ty) / 8;
      uint64_t a = addressOf(o[0], t);
      if (o[1].kind == Operand::Kind::Vec) {
        for (size_t k = 0; k < o[1].vec.size(); ++k)
          store(in, t, a + static_cast<uint64_t>(bytes) * k, bytes, o[1].vec[k] >= 0 ? reg(t, o[1].vec[k]) : 0);
      } else {
        store(in, t, a, bytes, value(o[1], t, ty));
      }
      return;
    }
    case Op::Cvta: {
      uint64_t v = value(o[1], t, Type::U64);
      uint64_t base = 0;
      if (in.space == Space::Shared) base = reinterpret_cast<uint64_t>(shared_.data());
      if (in.space == Space::Local) base = reinterpret_cast<uint64_t>(local_.data()) + static_cast<uint64_t>(fn_.localBytes) * t;
      setReg(o[0], t, truncateTo(ty, in.toSpace ? v - base : v + base));
      return;
    }
    case Op::Cvt: setReg(o[0], t, convert(in, value(o[1], t, in.srcType))); return;
    case Op::Setp: {
      bool second = o[0].imm == 1 && o[0].kind == Operand::Kind::Reg && o.size() >= 4 && o[1].kind != Operand::Kind::Imm;
      size_t a = second ? 2 : 1;
      bool r = compare(in, value(o[a], t, ty), value(o[a + 1], t, ty));
      bool p = r, q = !r;
      if (in.boolOp != BoolOp::None) {
        bool c = value(o[a + 2], t, Type::Pred) & 1;
        auto comb = [&](bool x) { return in.boolOp == BoolOp::And ? x && c : in.boolOp == BoolOp::Or ? x || c : x != c; };
        p = comb(r);
        q = comb(!r);
      }
      setReg(o[0], t, p);
      if (second) setReg(o[1], t, q);
      return;
    }
    case Op::Testp: setReg(o[0], t, testClass(in, value(o[1], t, ty))); return;
    case Op::Selp: setReg(o[0], t, (value(o[3], t, Type::Pred) & 1) ? value(o[1], t, ty) : value(o[2], t, ty)); return;
    case Op::Atom:
    case Op::Red: atomic(in, t); return;
    case Op::Nop: return;
    default: break;
  }
  // Arithmetic: d, a (, b (, c)).
  Type srcTy = ty;
  if ((in.op == Op::Mul || in.op == Op::Mad) && in.width == Width::Wide) srcTy = ty;
  uint64_t a = o.size() > 1 ? value(o[1], t, srcTy) : 0;
  uint64_t b = o.size() > 2 ? value(o[2], t, (in.op == Op::Shl || in.op == Op::Shr || in.op == Op::Bfe) ? Type::U32 : srcTy) : 0;
  Type cTy = srcTy;
  if (in.op == Op::Mad && in.width == Width::Wide) cTy = typeBits(ty) == 16 ? Type::B32 : Type::B64;
  if (in.op == Op::Bfe) cTy = Type::U32;
  uint64_t c = o.size() > 3 ? value(o[3], t, cTy) : 0;
  setReg(o[0], t, compute(in, a, b, c));
}

}  // namespace kc::ptx
