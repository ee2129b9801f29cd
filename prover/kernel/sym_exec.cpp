#include "prover/kernel/sym_exec.h"

#include <algorithm>
#include <cstring>

#include "backends/ptx/ptx_alu.h"
#include "backends/ptx/ptx_shfl.h"

namespace kc::kprove {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Type;

namespace {

constexpr uint32_t kWarp = 32;

float asFloat(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f = 0;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

uint64_t floatBits(double v) {
  float f = static_cast<float>(v);
  uint32_t b = 0;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

bool isPredLogic(const Instr& in) {
  return in.type == Type::Pred && (in.op == Op::And || in.op == Op::Or || in.op == Op::Xor || in.op == Op::Not);
}

}  // namespace

SymMachine::SymMachine(const ptx::Module& module, Dag& dag, std::vector<Region> regions, const ptx::Allocations* allocations,
                       uint32_t poisonBits)
    : module_(module), dag_(dag), regions_(std::move(regions)), allocations_(allocations), poisonBits_(poisonBits) {}

void SymMachine::unknown(const Instr& in, const std::string& why) const {
  throw SymUnknown(why + ": " + in.text + " (line " + std::to_string(in.line) + " of " + (fn_ ? fn_->name : "?") + ")",
                   in.line);
}

const Region* SymMachine::regionOf(uint64_t address) const {
  for (const Region& r : regions_)
    if (address >= r.base && address < r.base + r.bytes) return &r;
  return nullptr;
}

SymVal SymMachine::globalCell(uint64_t address) const {
  if (auto it = global_.find(address); it != global_.end()) return it->second;
  SymVal v;
  uint32_t b = 0;
  std::memcpy(&b, reinterpret_cast<const void*>(address), sizeof b);
  v.bits = b;
  const Region* r = regionOf(address);
  if (r && !r->input && b == poisonBits_) v.node = dag_.poison();
  return v;
}

int SymMachine::asNode(const Instr& in, SymVal v, Type type) {
  if (v.symbolic()) return v.node;
  if (type == Type::Pred) return dag_.boolConstant((v.bits & 1) != 0);
  if (ptx::typeBits(type) != 32 || (ptx::isFloat(type) && type != Type::F32))
    unknown(in, "a " + std::to_string(ptx::typeBits(type)) + "-bit value meets a value computed from the inputs (only f32 "
                "values are symbolic)");
  return dag_.constant(asFloat(v.bits));
}

SymVal SymMachine::merge(const Instr& in, int guard, SymVal now, SymVal before, Type type) {
  if (!now.symbolic() && !before.symbolic() && now.bits == before.bits) return now;
  if (now.symbolic() && before.symbolic() && now.node == before.node) return now;
  SymVal r;
  if (type == Type::Pred || (now.symbolic() && dag_.isBool(now.node))) {
    int a = asNode(in, now, Type::Pred), b = asNode(in, before, Type::Pred);
    r.node = dag_.boolOp(NodeKind::Or, dag_.boolOp(NodeKind::And, guard, a), dag_.boolOp(NodeKind::And, dag_.notB(guard), b));
    return r;
  }
  r.node = dag_.ite(guard, asNode(in, now, type), asNode(in, before, type));
  return r;
}

// --- operands -----------------------------------------------------------------------------------

SymVal SymMachine::value(const Operand& o, uint32_t t, Type type) {
  SymVal v;
  switch (o.kind) {
    case Operand::Kind::Reg:
      v = regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(o.reg)];
      if (o.negate) {
        if (v.symbolic()) v.node = dag_.notB(v.node);
        else v.bits = ~v.bits & 1;
      }
      return v;
    case Operand::Kind::Imm: v.bits = static_cast<uint64_t>(o.imm); return v;
    case Operand::Kind::FImm:
      v.bits = ptx::isFloat(type) ? ptx::floatImmediate(type, o.fimm) : static_cast<uint64_t>(o.imm);
      return v;
    case Operand::Kind::Special: {
      const ptx::Dim3& b = block_;
      switch (o.special) {
        case ptx::Special::TidX: v.bits = t % b.x; break;
        case ptx::Special::TidY: v.bits = t / b.x % b.y; break;
        case ptx::Special::TidZ: v.bits = t / (b.x * b.y); break;
        case ptx::Special::NtidX: v.bits = b.x; break;
        case ptx::Special::NtidY: v.bits = b.y; break;
        case ptx::Special::NtidZ: v.bits = b.z; break;
        case ptx::Special::CtaidX: v.bits = ctaid_.x; break;
        case ptx::Special::CtaidY: v.bits = ctaid_.y; break;
        case ptx::Special::CtaidZ: v.bits = ctaid_.z; break;
        case ptx::Special::NctaidX: v.bits = grid_.x; break;
        case ptx::Special::NctaidY: v.bits = grid_.y; break;
        case ptx::Special::NctaidZ: v.bits = grid_.z; break;
        case ptx::Special::Laneid: v.bits = t % kWarp; break;
        case ptx::Special::Warpid: v.bits = t / kWarp; break;
        case ptx::Special::Nwarpid: v.bits = (threads_ + kWarp - 1) / kWarp; break;
        case ptx::Special::Lanemask: v.bits = (uint64_t{1} << (t % kWarp)) - 1; break;
        default: v.bits = instructions_; break;  // clocks, timers, smid
      }
      return v;
    }
    case Operand::Kind::Symbol: {
      const ptx::Symbol& s = module_.symbols[static_cast<size_t>(o.symbol)];
      if (s.space == ptx::Space::Global || s.space == ptx::Space::Const)
        throw SymUnknown("the module-scope variable '" + s.name + "' is outside the symbolic subset", 0);
      v.bits = static_cast<uint64_t>(s.offset);
      return v;
    }
    default: throw SymUnknown("an operand of this kind has no value here", 0);
  }
}

void SymMachine::setReg(const Operand& o, uint32_t t, SymVal v, int guard) {
  if (o.kind == Operand::Kind::Sink) return;
  if (o.kind != Operand::Kind::Reg) throw SymUnknown("the destination is not a register", 0);
  SymVal& r = regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(o.reg)];
  if (guard >= 0) {
    Instr dummy;
    dummy.text = "(guarded instruction)";
    bool pred = v.symbolic() ? dag_.isBool(v.node) : (r.symbolic() && dag_.isBool(r.node));
    v = merge(dummy, guard, v, r, pred ? Type::Pred : Type::F32);
  }
  if (v.symbolic()) {  // constants stay concrete bits
    const Node& n = dag_.node(v.node);
    if (n.kind == NodeKind::Const) v = SymVal{floatBits(n.value), -1};
    else if (n.kind == NodeKind::BoolConst) v = SymVal{n.value != 0 ? 1u : 0u, -1};
  }
  r = v;
}

uint64_t SymMachine::address(const Instr& in, const Operand& o, uint32_t t) {
  SymVal base;
  if (o.kind != Operand::Kind::Addr) {
    base = value(o, t, Type::U64);
  } else {
    if (o.reg >= 0) base = regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(o.reg)];
    if (o.symbol >= 0) {
      Operand s;
      s.kind = Operand::Kind::Symbol;
      s.symbol = o.symbol;
      try {
        base = value(s, t, Type::U64);
      } catch (const SymUnknown& e) {
        unknown(in, e.what());
      }
    }
    if (!base.symbolic()) base.bits += static_cast<uint64_t>(o.imm);
  }
  if (base.symbolic()) unknown(in, "an address computed from the inputs (a data-dependent access)");
  return base.bits;
}

// --- memory -------------------------------------------------------------------------------------

// A generic address to the space it falls in: thread t's CTA shared memory or local frame,
// else global; `address` becomes the offset within shared or local memory.
ptx::Space SymMachine::resolveSpace(ptx::Space space, uint32_t t, uint64_t& address) const {
  if (space != ptx::Space::Generic) return space;
  const auto* sharedBase = shared_.bytes.data();
  const auto* localBase = local_.bytes.data();
  auto a = reinterpret_cast<const uint8_t*>(address);
  if (a >= sharedBase && a < sharedBase + sharedBytes_) {
    address -= reinterpret_cast<uint64_t>(sharedBase);
    return ptx::Space::Shared;
  }
  if (fn_->localBytes > 0 && a >= localBase && a < localBase + local_.bytes.size()) {
    address -= reinterpret_cast<uint64_t>(localBase) + static_cast<uint64_t>(fn_->localBytes) * t;
    return ptx::Space::Local;
  }
  return ptx::Space::Global;
}

SymVal SymMachine::load(const Instr& in, uint32_t t, uint64_t address, int bytes) {
  ptx::Space space = resolveSpace(in.space, t, address);
  SymVal v;
  auto finish = [&](const uint8_t* p) {
    std::memcpy(&v.bits, p, static_cast<size_t>(bytes));
    if (ptx::isSigned(in.type)) v.bits = static_cast<uint64_t>(ptx::asSigned(in.type, v.bits));
    return v;
  };
  auto fromSpace = [&](Space& s, uint64_t off, uint64_t limit, const char* what) {
    if (off + static_cast<uint64_t>(bytes) > limit) unknown(in, std::string("illegal memory access outside the ") + what);
    if (auto it = s.sym.find(off); it != s.sym.end() && bytes == 4) return SymVal{0, it->second};
    for (auto it = s.sym.lower_bound(off >= 3 ? off - 3 : 0); it != s.sym.end() && it->first < off + static_cast<uint64_t>(bytes); ++it)
      unknown(in, "a partial or wider read of an f32 value computed from the inputs");
    return finish(s.bytes.data() + off);
  };
  switch (space) {
    case ptx::Space::Shared: return fromSpace(shared_, address, sharedBytes_, "block's shared memory");
    case ptx::Space::Local:
      return fromSpace(local_, static_cast<uint64_t>(fn_->localBytes) * t + address,
                       static_cast<uint64_t>(fn_->localBytes) * (t + 1), "thread's local memory");
    case ptx::Space::Param: {
      if (address + static_cast<uint64_t>(bytes) > params_.size()) unknown(in, "a read outside the kernel's parameters");
      finish(params_.data() + address);
      if (bytes == 4)
        for (const Region& r : regions_)
          if (r.scalarMarker != 0 && static_cast<uint32_t>(v.bits) == r.scalarMarker) return SymVal{0, dag_.input(r.tensor, 0)};
      return v;
    }
    default: break;
  }
  if (!allocations_->contains(address, static_cast<size_t>(bytes)))
    unknown(in, "illegal memory access: " + std::to_string(bytes) + " bytes outside every allocation (check --backend ptx "
                "reports it as a CRASH)");
  if (auto it = global_.find(address); it != global_.end() && bytes == 4) return it->second;
  for (auto it = global_.lower_bound(address - 3); it != global_.end() && it->first < address + static_cast<uint64_t>(bytes); ++it)
    unknown(in, "a partial or wider read of a value the kernel stored as 4 bytes");
  const Region* r = regionOf(address);
  if (r && r->input) {
    if (bytes != 4 || (address - r->base) % 4 != 0) unknown(in, "a " + std::to_string(bytes) + "-byte read of an f32 input");
    return SymVal{0, dag_.input(r->tensor, static_cast<int64_t>((address - r->base) / 4))};
  }
  finish(reinterpret_cast<const uint8_t*>(address));
  if (r && bytes == 4 && static_cast<uint32_t>(v.bits) == poisonBits_) return SymVal{0, dag_.poison()};
  return v;
}

void SymMachine::store(const Instr& in, uint32_t t, uint64_t address, int bytes, SymVal v, int guard) {
  if (guard >= 0) v = merge(in, guard, v, load(in, t, address, bytes), in.type);
  if (v.symbolic() && bytes != 4) unknown(in, "a " + std::to_string(bytes) + "-byte store of a value computed from the inputs");
  ptx::Space space = resolveSpace(in.space, t, address);
  auto intoSpace = [&](Space& s, uint64_t off, uint64_t limit, const char* what) {
    if (off + static_cast<uint64_t>(bytes) > limit) unknown(in, std::string("illegal memory access outside the ") + what);
    for (auto it = s.sym.lower_bound(off >= 3 ? off - 3 : 0); it != s.sym.end() && it->first < off + static_cast<uint64_t>(bytes);)
      it = s.sym.erase(it);
    if (v.symbolic()) s.sym[off] = v.node;
    else std::memcpy(s.bytes.data() + off, &v.bits, static_cast<size_t>(bytes));
  };
  switch (space) {
    case ptx::Space::Shared: intoSpace(shared_, address, sharedBytes_, "block's shared memory"); return;
    case ptx::Space::Local:
      intoSpace(local_, static_cast<uint64_t>(fn_->localBytes) * t + address, static_cast<uint64_t>(fn_->localBytes) * (t + 1),
                "thread's local memory");
      return;
    case ptx::Space::Param: unknown(in, "a store to the kernel's parameters");
    default: break;
  }
  if (!allocations_->contains(address, static_cast<size_t>(bytes)))
    unknown(in, "illegal memory access: a " + std::to_string(bytes) + "-byte store outside every allocation (check --backend "
                "ptx reports it as a CRASH)");
  for (auto it = global_.lower_bound(address - 3); it != global_.end() && it->first < address + static_cast<uint64_t>(bytes);)
    it = global_.erase(it);
  if (bytes == 4) {
    global_[address] = v;
    return;
  }
  const Region* r = regionOf(address);
  if (r && r->input) unknown(in, "a " + std::to_string(bytes) + "-byte store into an f32 input");
  std::memcpy(reinterpret_cast<void*>(address), &v.bits, static_cast<size_t>(bytes));
}

// --- instructions -------------------------------------------------------------------------------

void SymMachine::execute(const Instr& in, uint32_t t, int guard) {
  const std::vector<Operand>& o = in.ops;
  const Type ty = in.type;
  auto reg = [&](int r) -> SymVal& { return regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(r)]; };
  switch (in.op) {
    case Op::Mov: {
      if (o[0].kind == Operand::Kind::Vec || o[1].kind == Operand::Kind::Vec) {
        if (guard >= 0) unknown(in, "a vector move under a predicate computed from the inputs");
        if (o[0].kind == Operand::Kind::Vec) {
          SymVal v = value(o[1], t, ty);
          if (v.symbolic()) unknown(in, "unpacking a value computed from the inputs");
          int w = ptx::typeBits(ty) / static_cast<int>(o[0].vec.size());
          for (size_t k = 0; k < o[0].vec.size(); ++k)
            if (o[0].vec[k] >= 0)
              reg(o[0].vec[k]) = SymVal{(v.bits >> (w * static_cast<int>(k))) & (w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1), -1};
        } else {
          int w = ptx::typeBits(ty) / static_cast<int>(o[1].vec.size());
          uint64_t v = 0;
          for (size_t k = 0; k < o[1].vec.size(); ++k) {
            SymVal part = o[1].vec[k] >= 0 ? reg(o[1].vec[k]) : SymVal{};
            if (part.symbolic()) unknown(in, "packing a value computed from the inputs");
            uint64_t bits = part.bits;
            if (w < 64) bits &= (uint64_t{1} << w) - 1;
            v |= bits << (w * static_cast<int>(k));
          }
          setReg(o[0], t, SymVal{v, -1}, -1);
        }
        return;
      }
      SymVal v = value(o[1], t, ty);
      if (!v.symbolic()) v.bits = ty == Type::Pred ? v.bits & 1 : ptx::truncateTo(ty, v.bits);
      setReg(o[0], t, v, guard);
      return;
    }
    case Op::Ld: {
      int bytes = ptx::typeBits(ty) / 8;
      uint64_t a = address(in, o[1], t);
      if (o[0].kind == Operand::Kind::Vec) {
        for (size_t k = 0; k < o[0].vec.size(); ++k) {
          SymVal v = load(in, t, a + static_cast<uint64_t>(bytes) * k, bytes);
          if (o[0].vec[k] >= 0) {
            Operand d;
            d.kind = Operand::Kind::Reg;
            d.reg = o[0].vec[k];
            setReg(d, t, v, guard);
          }
        }
      } else {
        setReg(o[0], t, load(in, t, a, bytes), guard);
      }
      return;
    }
    case Op::St: {
      int bytes = ptx::typeBits(ty) / 8;
      uint64_t a = address(in, o[0], t);
      if (o[1].kind == Operand::Kind::Vec) {
        for (size_t k = 0; k < o[1].vec.size(); ++k)
          store(in, t, a + static_cast<uint64_t>(bytes) * k, bytes, o[1].vec[k] >= 0 ? reg(o[1].vec[k]) : SymVal{}, guard);
      } else {
        store(in, t, a, bytes, value(o[1], t, ty), guard);
      }
      return;
    }
    case Op::Cvta: {
      SymVal v = value(o[1], t, Type::U64);
      if (v.symbolic()) unknown(in, "an address computed from the inputs");
      uint64_t base = 0;
      if (in.space == ptx::Space::Shared) base = reinterpret_cast<uint64_t>(shared_.bytes.data());
      if (in.space == ptx::Space::Local)
        base = reinterpret_cast<uint64_t>(local_.bytes.data()) + static_cast<uint64_t>(fn_->localBytes) * t;
      setReg(o[0], t, SymVal{ptx::truncateTo(ty, in.toSpace ? v.bits - base : v.bits + base), -1}, guard);
      return;
    }
    case Op::Cvt: {
      SymVal v = value(o[1], t, in.srcType);
      if (v.symbolic()) {
        bool integerRounding = in.round == ptx::Round::Rni || in.round == ptx::Round::Rzi || in.round == ptx::Round::Rmi ||
                               in.round == ptx::Round::Rpi;
        if (in.srcType == Type::F32 && ty == Type::F32 && !integerRounding && !in.sat) {
          setReg(o[0], t, v, guard);
          return;
        }
        unknown(in, "a conversion of a value computed from the inputs (only f32 values are symbolic)");
      }
      setReg(o[0], t, SymVal{ptx::convert(in, v.bits), -1}, guard);
      return;
    }
    case Op::Setp: {
      bool second = o[0].imm == 1 && o[0].kind == Operand::Kind::Reg && o.size() >= 4 && o[1].kind != Operand::Kind::Imm;
      size_t ai = second ? 2 : 1;
      SymVal a = value(o[ai], t, ty), b = value(o[ai + 1], t, ty);
      SymVal c;
      if (in.boolOp != ptx::BoolOp::None) c = value(o[ai + 2], t, Type::Pred);
      if (!a.symbolic() && !b.symbolic() && !c.symbolic()) {
        bool r = ptx::compare(in, a.bits, b.bits);
        bool p = r, q = !r;
        if (in.boolOp != ptx::BoolOp::None) {
          bool cv = c.bits & 1;
          auto comb = [&](bool x) { return in.boolOp == ptx::BoolOp::And ? x && cv : in.boolOp == ptx::BoolOp::Or ? x || cv : x != cv; };
          p = comb(r);
          q = comb(!r);
        }
        setReg(o[0], t, SymVal{p ? 1u : 0u, -1}, guard);
        if (second) setReg(o[1], t, SymVal{q ? 1u : 0u, -1}, guard);
        return;
      }
      int r = -1;
      if (a.symbolic() || b.symbolic()) {
        if (ty != Type::F32) unknown(in, "an integer comparison of a value computed from the inputs");
        int na = asNode(in, a, ty), nb = asNode(in, b, ty);
        switch (in.cmp) {
          case ptx::Cmp::Eq: case ptx::Cmp::Equ: r = dag_.cmp(NodeKind::Eq, na, nb); break;
          case ptx::Cmp::Ne: case ptx::Cmp::Neu: r = dag_.cmp(NodeKind::Ne, na, nb); break;
          case ptx::Cmp::Lt: case ptx::Cmp::Ltu: r = dag_.cmp(NodeKind::Lt, na, nb); break;
          case ptx::Cmp::Le: case ptx::Cmp::Leu: r = dag_.cmp(NodeKind::Le, na, nb); break;
          case ptx::Cmp::Gt: case ptx::Cmp::Gtu: r = dag_.cmp(NodeKind::Gt, na, nb); break;
          case ptx::Cmp::Ge: case ptx::Cmp::Geu: r = dag_.cmp(NodeKind::Ge, na, nb); break;
          case ptx::Cmp::Num: r = dag_.boolConstant(true); break;  // finite inputs: never NaN
          case ptx::Cmp::Nan: r = dag_.boolConstant(false); break;
          default: unknown(in, "this comparison of a value computed from the inputs");
        }
      } else {
        r = dag_.boolConstant(ptx::compare(in, a.bits, b.bits));
      }
      int p = r, q = dag_.notB(r);
      if (in.boolOp != ptx::BoolOp::None) {
        int cn = asNode(in, c, Type::Pred);
        NodeKind k = in.boolOp == ptx::BoolOp::And ? NodeKind::And : in.boolOp == ptx::BoolOp::Or ? NodeKind::Or : NodeKind::Xor;
        p = dag_.boolOp(k, r, cn);
        q = dag_.boolOp(k, dag_.notB(r), cn);
      }
      setReg(o[0], t, SymVal{0, p}, guard);
      if (second) setReg(o[1], t, SymVal{0, q}, guard);
      return;
    }
    case Op::Selp: {
      SymVal p = value(o[3], t, Type::Pred);
      SymVal a = value(o[1], t, ty), b = value(o[2], t, ty);
      if (!p.symbolic()) {
        setReg(o[0], t, (p.bits & 1) ? a : b, guard);
        return;
      }
      if (!a.symbolic() && !b.symbolic() && a.bits == b.bits) {
        setReg(o[0], t, a, guard);
        return;
      }
      if (ty != Type::F32 && ty != Type::B32) unknown(in, "an integer selected by a predicate computed from the inputs");
      setReg(o[0], t, SymVal{0, dag_.ite(p.node, asNode(in, a, Type::F32), asNode(in, b, Type::F32))}, guard);
      return;
    }
    case Op::Atom:
    case Op::Red: {
      size_t at = in.op == Op::Atom ? 1 : 0;
      uint64_t a = address(in, o[at], t);
      int bytes = ptx::typeBits(ty) / 8;
      SymVal old = load(in, t, a, bytes);
      SymVal b = value(o[at + 1], t, ty);
      if (guard >= 0) unknown(in, "an atomic under a predicate computed from the inputs");
      SymVal nv;
      if (!old.symbolic() && !b.symbolic()) {
        Instr alu = in;
        alu.round = ptx::Round::None;
        switch (in.atom) {
          case ptx::AtomOp::Add: alu.op = Op::Add; nv.bits = ptx::compute(alu, old.bits, b.bits, 0); break;
          case ptx::AtomOp::Min: alu.op = Op::Min; nv.bits = ptx::compute(alu, old.bits, b.bits, 0); break;
          case ptx::AtomOp::Max: alu.op = Op::Max; nv.bits = ptx::compute(alu, old.bits, b.bits, 0); break;
          case ptx::AtomOp::Exch: nv = b; break;
          case ptx::AtomOp::Cas: {
            SymVal c = value(o[at + 2], t, ty);
            if (c.symbolic()) unknown(in, "a compare-and-swap of a value computed from the inputs");
            nv = ptx::truncateTo(ty, old.bits) == ptx::truncateTo(ty, b.bits) ? c : old;
            break;
          }
          default: unknown(in, "this atomic operation is outside the symbolic subset");
        }
      } else if (in.atom == ptx::AtomOp::Add && ty == Type::F32) {
        nv.node = dag_.add(asNode(in, old, ty), asNode(in, b, ty), false, in.line);  // in the order the scheduler runs
      } else if (in.atom == ptx::AtomOp::Exch) {
        nv = b;
      } else {
        unknown(in, "an atomic other than f32 add on a value computed from the inputs");
      }
      store(in, t, a, bytes, nv, -1);
      if (in.op == Op::Atom) setReg(o[0], t, old, -1);
      return;
    }
    case Op::Nop:
    case Op::Membar: return;
    default: break;
  }
  // Arithmetic: d, a (, b (, c)).
  Type srcTy = ty;
  SymVal a = o.size() > 1 ? value(o[1], t, srcTy) : SymVal{};
  SymVal b = o.size() > 2 ? value(o[2], t, (in.op == Op::Shl || in.op == Op::Shr || in.op == Op::Bfe) ? Type::U32 : srcTy) : SymVal{};
  Type cTy = srcTy;
  if (in.op == Op::Mad && in.width == ptx::Width::Wide) cTy = ptx::typeBits(ty) == 16 ? Type::B32 : Type::B64;
  if (in.op == Op::Bfe) cTy = Type::U32;
  SymVal c = o.size() > 3 ? value(o[3], t, cTy) : SymVal{};
  if (!a.symbolic() && !b.symbolic() && !c.symbolic()) {
    try {
      setReg(o[0], t, SymVal{ptx::compute(in, a.bits, b.bits, c.bits), -1}, guard);
    } catch (const ptx::AluError& e) {
      unknown(in, e.what());
    }
    return;
  }
  if (isPredLogic(in)) {
    int x = asNode(in, a, Type::Pred);
    int r = in.op == Op::Not ? dag_.notB(x)
                             : dag_.boolOp(in.op == Op::And ? NodeKind::And : in.op == Op::Or ? NodeKind::Or : NodeKind::Xor, x,
                                           asNode(in, b, Type::Pred));
    setReg(o[0], t, SymVal{0, r}, guard);
    return;
  }
  if (ty != Type::F32)
    unknown(in, ptx::isFloat(ty) ? "arithmetic on a value computed from the inputs in a type other than f32"
                                 : "an integer or bit operation on a value computed from the inputs");
  if (in.sat) unknown(in, ".sat on a value computed from the inputs");
  bool directed = in.round == ptx::Round::Rz || in.round == ptx::Round::Rm || in.round == ptx::Round::Rp;
  auto n = [&](SymVal v) { return asNode(in, v, Type::F32); };
  int r = -1;
  switch (in.op) {
    case Op::Add: r = dag_.add(n(a), n(b), directed, in.line); break;
    case Op::Sub: r = dag_.sub(n(a), n(b), directed, in.line); break;
    case Op::Mul: r = dag_.mul(n(a), n(b), directed, in.line); break;
    case Op::Fma:
    case Op::Mad: r = dag_.fma(n(a), n(b), n(c), directed, in.line); break;
    case Op::Div:
      if (in.approx || in.round == ptx::Round::None)
        unknown(in, "an approximate division of a value computed from the inputs (its error model is not built)");
      r = dag_.div(n(a), n(b), directed, in.line);
      break;
    case Op::Rcp:
      if (in.approx || in.round == ptx::Round::None)
        unknown(in, "an approximate reciprocal of a value computed from the inputs (its error model is not built)");
      r = dag_.div(dag_.constant(1.0f), n(a), directed, in.line);
      break;
    case Op::Sqrt:
      if (in.approx || in.round == ptx::Round::None)
        unknown(in, "an approximate square root of a value computed from the inputs (its error model is not built)");
      r = dag_.sqrt(n(a), directed, in.line);
      break;
    case Op::Neg: r = dag_.neg(n(a)); break;
    case Op::Abs: r = dag_.abs(n(a)); break;
    case Op::Min: r = dag_.min(n(a), n(b)); break;
    case Op::Max: r = dag_.max(n(a), n(b)); break;
    default:
      unknown(in, "this instruction on a value computed from the inputs is outside the symbolic subset (transcendental, "
                  "approximate and bit-level operations are not modelled)");
  }
  setReg(o[0], t, SymVal{0, r}, guard);
}

void SymMachine::shfl(const Instr& in, const std::vector<uint32_t>& group) {
  const uint32_t warpBase = group.front() / kWarp * kWarp;
  uint32_t present = 0;
  for (uint32_t t : group) present |= 1u << (t - warpBase);
  auto concrete = [&](const Operand& op, uint32_t t, Type ty) {
    SymVal v = value(op, t, ty);
    if (v.symbolic()) unknown(in, "a warp operation's lane, mask or predicate computed from the inputs");
    return v.bits;
  };
  if (in.op == Op::BarWarp) return;
  if (in.op == Op::Activemask) {
    for (uint32_t t : group) regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(in.ops[0].reg)] = SymVal{present, -1};
    return;
  }
  if (in.op == Op::Vote) {
    uint32_t mask = static_cast<uint32_t>(concrete(in.ops[2], group.front(), Type::B32));
    uint32_t ballot = 0;
    for (uint32_t t : group)
      if ((mask >> (t - warpBase) & 1) && (concrete(in.ops[1], t, Type::Pred) & 1)) ballot |= 1u << (t - warpBase);
    uint32_t members = mask & present;
    for (uint32_t t : group) {
      uint64_t r = in.atom == ptx::AtomOp::Add ? ballot : in.atom == ptx::AtomOp::Or ? (ballot != 0) : (ballot == members);
      regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(in.ops[0].reg)] = SymVal{r, -1};
    }
    return;
  }
  const std::vector<Operand>& o = in.ops;
  bool hasPred = o[0].imm == 1 && o.size() == 6;
  size_t a = hasPred ? 2 : 1;
  std::vector<SymVal> src(kWarp);
  for (uint32_t t : group) src[t - warpBase] = value(o[a], t, Type::B32);
  std::vector<std::pair<SymVal, bool>> out;
  for (uint32_t t : group) {
    uint32_t lane = t - warpBase;
    ptx::ShflSource s = ptx::shflSource(in.shfl, lane, static_cast<uint32_t>(concrete(o[a + 1], t, Type::B32)),
                                        static_cast<uint32_t>(concrete(o[a + 2], t, Type::B32)));
    const uint32_t j = s.lane;
    const bool ok = s.inRange;
    SymVal v = (present >> j & 1) ? src[j] : (warpBase + j < threads_ ? value(o[a], warpBase + j, Type::B32) : SymVal{});
    out.push_back({v, ok});
  }
  for (size_t k = 0; k < group.size(); ++k) {
    setReg(o[0], group[k], out[k].first, -1);
    if (hasPred) setReg(o[1], group[k], SymVal{out[k].second ? 1u : 0u, -1}, -1);
  }
}

void SymMachine::step(uint32_t pc, const std::vector<uint32_t>& group) {
  const Instr& in = fn_->code[pc];
  instructions_ += group.size();
  if (instructions_ > instructionLimit)
    throw SymUnknown("the symbolic run passed its limit of " + std::to_string(instructionLimit) + " thread-instructions", in.line);
  std::vector<uint32_t> on;
  std::vector<int> guards;
  for (uint32_t t : group) {
    int g = -1;
    if (in.guard >= 0) {
      SymVal p = regs_[static_cast<size_t>(t) * nregs_ + static_cast<size_t>(in.guard)];
      if (p.symbolic()) {
        g = in.guardNegated ? dag_.notB(p.node) : p.node;
      } else if (((p.bits & 1) != 0) == in.guardNegated) {
        pc_[t] = pc + 1;
        continue;
      }
    }
    on.push_back(t);
    guards.push_back(g);
  }
  if (on.empty()) return;
  bool symbolicGuard = std::any_of(guards.begin(), guards.end(), [](int g) { return g >= 0; });
  switch (in.op) {
    case Op::Bra:
      if (symbolicGuard) unknown(in, "a branch on a value computed from the inputs (data-dependent control flow)");
      for (uint32_t t : on) pc_[t] = static_cast<uint32_t>(in.ops[0].imm);
      return;
    case Op::Ret:
    case Op::Exit:
      if (symbolicGuard) unknown(in, "an exit under a predicate computed from the inputs");
      for (uint32_t t : on) state_[t] = Exited;
      return;
    case Op::Bar:
      if (symbolicGuard) unknown(in, "a barrier under a predicate computed from the inputs");
      for (uint32_t t : on) {
        state_[t] = AtBarrier;
        pc_[t] = pc + 1;
      }
      return;
    case Op::Shfl:
    case Op::Vote:
    case Op::BarWarp:
    case Op::Activemask:
      if (symbolicGuard) unknown(in, "a warp operation under a predicate computed from the inputs");
      shfl(in, on);
      for (uint32_t t : on) pc_[t] = pc + 1;
      return;
    default:
      for (size_t k = 0; k < on.size(); ++k) {
        try {
          execute(in, on[k], guards[k]);
        } catch (const SymUnknown& e) {
          if (e.line != 0) throw;
          unknown(in, e.what());
        }
        pc_[on[k]] = pc + 1;
      }
  }
}

void SymMachine::runCta(ptx::Dim3 ctaid) {
  ctaid_ = ctaid;
  regs_.assign(static_cast<size_t>(threads_) * nregs_, SymVal{});
  pc_.assign(threads_, 0);
  state_.assign(threads_, Running);
  shared_.bytes.assign(std::max<size_t>(1, sharedBytes_), 0);
  shared_.sym.clear();
  local_.bytes.assign(std::max<size_t>(1, static_cast<size_t>(fn_->localBytes) * threads_), 0);
  local_.sym.clear();
  const uint32_t warps = (threads_ + kWarp - 1) / kWarp;
  const uint32_t end = static_cast<uint32_t>(fn_->code.size());
  std::vector<uint32_t> group;
  for (;;) {
    for (uint32_t w = 0; w < warps; ++w) {
      const uint32_t first = w * kWarp, last = std::min(threads_, first + kWarp);
      for (;;) {
        uint32_t pc = UINT32_MAX;
        for (uint32_t t = first; t < last; ++t)
          if (state_[t] == Running) pc = std::min(pc, pc_[t]);
        if (pc == UINT32_MAX) break;
        group.clear();
        for (uint32_t t = first; t < last; ++t)
          if (state_[t] == Running && pc_[t] == pc) group.push_back(t);
        if (pc >= end) {
          for (uint32_t t : group) state_[t] = Exited;
          continue;
        }
        step(pc, group);
      }
    }
    bool waiting = false;
    for (uint32_t t = 0; t < threads_; ++t)
      if (state_[t] == AtBarrier) {
        state_[t] = Running;
        waiting = true;
      }
    if (!waiting) return;
  }
}

void SymMachine::launch(const ptx::Function& fn, ptx::Dim3 grid, ptx::Dim3 block, size_t dynamicShared, void** args) {
  fn_ = &fn;
  grid_ = grid;
  block_ = block;
  threads_ = static_cast<uint32_t>(block.count());
  nregs_ = static_cast<size_t>(std::max(1, fn.registers));
  sharedBytes_ = static_cast<size_t>(fn.sharedBytes) + dynamicShared;
  params_.assign(static_cast<size_t>(fn.paramBytes), 0);
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const ptx::Symbol& p = module_.symbols[static_cast<size_t>(fn.params[k])];
    if (args && args[k]) std::memcpy(params_.data() + p.offset, args[k], static_cast<size_t>(p.size));
  }
  for (uint64_t linear = 0; linear < grid.count(); ++linear) {
    ptx::Dim3 id{static_cast<uint32_t>(linear % grid.x), static_cast<uint32_t>(linear / grid.x % grid.y),
                 static_cast<uint32_t>(linear / (uint64_t{grid.x} * grid.y))};
    runCta(id);
  }
}

}  // namespace kc::kprove
