// Opcode decoding: "cvt.rn.f32.f64" -> Op::Cvt, round Rn, type F32, srcType F64. The
// instruction subset is the table in decodeOpcode; docs/ptx.md lists it.
#include <map>
#include <sstream>

#include "backends/ptx/ptx_parser.h"

namespace kc::ptx {

int typeBits(Type t) {
  switch (t) {
    case Type::Pred: return 1;
    case Type::B8: case Type::U8: case Type::S8: return 8;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 16;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: case Type::BF16x2: return 32;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
    default: return 0;
  }
}

bool isFloat(Type t) { return t == Type::F16 || t == Type::BF16 || t == Type::F32 || t == Type::F64; }
bool isSigned(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }

Type typeFromName(const std::string& n) {
  static const std::map<std::string, Type> names = {
      {"pred", Type::Pred}, {"b8", Type::B8},   {"b16", Type::B16}, {"b32", Type::B32}, {"b64", Type::B64},
      {"u8", Type::U8},     {"u16", Type::U16}, {"u32", Type::U32}, {"u64", Type::U64}, {"s8", Type::S8},
      {"s16", Type::S16},   {"s32", Type::S32}, {"s64", Type::S64}, {"f16", Type::F16}, {"bf16", Type::BF16},
      {"f32", Type::F32},   {"f64", Type::F64}, {"f16x2", Type::F16x2}, {"bf16x2", Type::BF16x2}};
  auto it = names.find(n);
  return it == names.end() ? Type::None : it->second;
}

const char* spaceName(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Param: return "param";
    case Space::Const: return "const";
    default: return "generic";
  }
}

namespace {

const std::map<std::string, Op>& baseOps() {
  static const std::map<std::string, Op> ops = {
      {"mov", Op::Mov},     {"ld", Op::Ld},         {"ldu", Op::Ld},       {"st", Op::St},       {"cvta", Op::Cvta},
      {"cvt", Op::Cvt},     {"add", Op::Add},       {"sub", Op::Sub},      {"mul", Op::Mul},     {"mad", Op::Mad},
      {"fma", Op::Fma},     {"div", Op::Div},       {"rem", Op::Rem},      {"abs", Op::Abs},     {"neg", Op::Neg},
      {"min", Op::Min},     {"max", Op::Max},       {"and", Op::And},      {"or", Op::Or},       {"xor", Op::Xor},
      {"not", Op::Not},     {"shl", Op::Shl},       {"shr", Op::Shr},      {"setp", Op::Setp},   {"selp", Op::Selp},
      {"bra", Op::Bra},     {"ret", Op::Ret},       {"exit", Op::Exit},    {"bar", Op::Bar},     {"barrier", Op::Bar},
      {"shfl", Op::Shfl},   {"vote", Op::Vote},     {"atom", Op::Atom},    {"red", Op::Red},     {"ex2", Op::Ex2},
      {"lg2", Op::Lg2},     {"rcp", Op::Rcp},       {"rsqrt", Op::Rsqrt},  {"sqrt", Op::Sqrt},   {"sin", Op::Sin},
      {"cos", Op::Cos},     {"tanh", Op::Tanh},     {"popc", Op::Popc},    {"clz", Op::Clz},     {"brev", Op::Brev},
      {"bfe", Op::Bfe},     {"copysign", Op::Copysign}, {"testp", Op::Testp}, {"membar", Op::Membar},
      {"fence", Op::Membar}, {"nanosleep", Op::Nop}, {"activemask", Op::Activemask}, {"prefetch", Op::Nop},
      {"pmevent", Op::Nop}};
  return ops;
}

const std::map<std::string, Cmp>& cmps() {
  static const std::map<std::string, Cmp> c = {
      {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
      {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},
      {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
      {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan}};
  return c;
}

const std::map<std::string, Round>& rounds() {
  static const std::map<std::string, Round> r = {{"rn", Round::Rn},   {"rz", Round::Rz},   {"rm", Round::Rm},
                                                 {"rp", Round::Rp},   {"rni", Round::Rni}, {"rzi", Round::Rzi},
                                                 {"rmi", Round::Rmi}, {"rpi", Round::Rpi}};
  return r;
}

const std::map<std::string, AtomOp>& atomOps() {
  static const std::map<std::string, AtomOp> a = {{"add", AtomOp::Add}, {"min", AtomOp::Min},   {"max", AtomOp::Max},
                                                  {"inc", AtomOp::Inc}, {"dec", AtomOp::Dec},   {"and", AtomOp::And},
                                                  {"or", AtomOp::Or},   {"xor", AtomOp::Xor},   {"exch", AtomOp::Exch},
                                                  {"cas", AtomOp::Cas}};
  return a;
}

// Modifiers that change nothing the interpreter models: caching, memory ordering, scopes,
// alignment and uniformity hints.
bool ignorable(const std::string& m) {
  static const char* const names[] = {"nc",  "ca",   "cg",      "cs",     "lu",  "cv",   "wb",  "wt",  "volatile",
                                      "relaxed", "acquire", "release", "acq_rel", "sc", "cta", "gpu", "sys",
                                      "weak", "aligned", "sync", "noftz", "full", "L1::no_allocate",
                                      "L2::64B", "L2::128B", "L2::256B", "any", "all", "ballot", "uni"};
  for (const char* n : names)
    if (m == n) return true;
  return false;
}

}  // namespace

bool decodeOpcode(const std::string& opcode, Instr& in) {
  std::vector<std::string> parts;
  std::stringstream ss(opcode);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  if (parts.empty()) return false;
  auto base = baseOps().find(parts[0]);
  if (base == baseOps().end()) return false;
  in.op = base->second;
  in.text = opcode;
  std::vector<Type> types;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& m = parts[i];
    if (Type t = typeFromName(m); t != Type::None) {
      types.push_back(t);
    } else if (m == "global" || m == "shared" || m == "local" || m == "param" || m == "const") {
      in.space = m == "global" ? Space::Global : m == "shared" ? Space::Shared : m == "local" ? Space::Local
                                                : m == "param" ? Space::Param : Space::Const;
    } else if (m == "v2" || m == "v4") {
      in.vecWidth = m == "v2" ? 2 : 4;
    } else if ((in.op == Op::Setp || in.op == Op::Testp) && cmps().count(m)) {
      in.cmp = cmps().at(m);
    } else if (in.op == Op::Setp && (m == "and" || m == "or" || m == "xor")) {
      in.boolOp = m == "and" ? BoolOp::And : m == "or" ? BoolOp::Or : BoolOp::Xor;
    } else if (rounds().count(m)) {
      in.round = rounds().at(m);
    } else if ((in.op == Op::Atom || in.op == Op::Red) && atomOps().count(m)) {
      in.atom = atomOps().at(m);
    } else if (in.op == Op::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
      in.shfl = m == "up" ? ShflMode::Up : m == "down" ? ShflMode::Down : m == "bfly" ? ShflMode::Bfly : ShflMode::Idx;
    } else if (in.op == Op::Vote && (m == "any" || m == "all" || m == "uni" || m == "ballot")) {
      in.atom = m == "any" ? AtomOp::Or : m == "all" ? AtomOp::And : m == "ballot" ? AtomOp::Add : AtomOp::Xor;
    } else if (m == "lo" || m == "hi" || m == "wide") {
      in.width = m == "lo" ? Width::Lo : m == "hi" ? Width::Hi : Width::Wide;
    } else if (m == "to" && in.op == Op::Cvta) {
      in.toSpace = true;
    } else if (m == "ftz") {
      in.ftz = true;
    } else if (m == "sat") {
      in.sat = true;
    } else if (m == "approx") {
      in.approx = true;
    } else if (m == "uni") {
      in.uni = true;
    } else if (m == "warp" && in.op == Op::Bar) {
      in.op = Op::BarWarp;
    } else if (m == "arrive" || m == "red" || m == "cluster") {
      return false;  // barrier flavours outside the subset
    } else if (m == "finite" || m == "infinite" || m == "number" || m == "notanumber" || m == "normal" ||
               m == "subnormal") {
      in.cmp = m == "finite" ? Cmp::Num : m == "notanumber" ? Cmp::Nan : m == "infinite" ? Cmp::Equ : Cmp::Neu;
      if (m == "normal" || m == "subnormal" || m == "number") return false;
    } else if (!ignorable(m)) {
      return false;
    }
  }
  if (in.op == Op::Cvt) {
    if (types.size() != 2) return false;
    in.type = types[0];
    in.srcType = types[1];
  } else if (in.op == Op::Cvta) {
    in.type = types.empty() ? Type::U64 : types.back();
  } else if (!types.empty()) {
    in.type = types.back();
    if (types.size() == 2) in.srcType = types[0];  // setp.f32 etc. have one; keep the first for odd forms
  }
  if (in.op == Op::Activemask) in.type = Type::B32;
  if (in.op == Op::Vote && in.atom == AtomOp::Xor) return false;  // vote.uni
  if ((in.op == Op::Atom || in.op == Op::Red) && in.atom == AtomOp::None) return false;
  if ((in.op == Op::Sin || in.op == Op::Cos || in.op == Op::Tanh || in.op == Op::Lg2 || in.op == Op::Ex2) && !in.approx)
    return false;
  return true;
}

}  // namespace kc::ptx
