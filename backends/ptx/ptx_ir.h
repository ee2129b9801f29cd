#pragma once
// The PTX engine's IR (docs/ptx.md): a module of kernels, each a flat list of decoded
// instructions with its labels resolved to instruction indices. The parser (ptx_parser.h)
// builds it from the text nvcc -ptx writes; the interpreter (ptx_cta.h) runs it. Every
// instruction keeps its source line, so that errors and findings name it.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kc::ptx {

// A PTX scalar type. Bits are what a register of it holds; the kind says how they are read.
enum class Type : uint8_t { None, Pred, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, BF16, F32, F64,
                            F16x2, BF16x2 };
enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };

int typeBits(Type t);
bool isFloat(Type t);
bool isSigned(Type t);
Type typeFromName(const std::string& name);  // "f32" -> F32; None when it is no type
const char* spaceName(Space s);

enum class Op : uint16_t {
  Mov, Ld, St, Cvta, Cvt, Add, Sub, Mul, Mad, Fma, Div, Rem, Abs, Neg, Min, Max, And, Or, Xor, Not, Shl, Shr,
  Setp, Selp, Bra, Ret, Exit, Bar, BarWarp, Shfl, Vote, Atom, Red, Ex2, Lg2, Rcp, Rsqrt, Sqrt, Sin, Cos, Tanh,
  Popc, Clz, Brev, Bfe, Copysign, Testp, Membar, Nop, Activemask
};

enum class Cmp : uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class Round : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class Width : uint8_t { None, Lo, Hi, Wide };  // mul/mad
enum class AtomOp : uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class BoolOp : uint8_t { None, And, Or, Xor };  // setp's optional combination

enum class Special : uint8_t { TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
                               Laneid, Warpid, Nwarpid, Clock, Clock64, Globaltimer, Smid, Lanemask };

struct Operand {
  enum class Kind : uint8_t { None, Reg, Imm, FImm, Special, Addr, Symbol, Label, Vec, Sink };
  Kind kind = Kind::None;
  bool negate = false;   // !%p
  int reg = -1;          // Reg; Addr's base register (-1: none)
  int symbol = -1;       // Symbol; Addr's base symbol (an index into Module::symbols)
  int64_t imm = 0;       // Imm (the bits); Addr's byte offset; Label's instruction index
  double fimm = 0;       // FImm: the value of 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX as written
  bool fimmIsDouble = false;
  Special special = Special::TidX;
  std::vector<int> vec;  // Vec: registers (-1 for a sink `_`)
};

struct Instr {
  Op op = Op::Nop;
  std::string text;        // the opcode as written: "ld.global.nc.f32" (for messages)
  int line = 0;            // in the .ptx file
  int guard = -1;          // @%p / @!%p: the predicate register, -1 when none
  bool guardNegated = false;
  Type type = Type::None;  // the instruction type (cvt: destination)
  Type srcType = Type::None;  // cvt's source type; setp/selp/mul.wide read their operands at `type`
  Space space = Space::Generic;
  Cmp cmp = Cmp::None;
  BoolOp boolOp = BoolOp::None;
  Round round = Round::None;
  Width width = Width::None;
  AtomOp atom = AtomOp::None;
  ShflMode shfl = ShflMode::Idx;
  bool ftz = false, sat = false, approx = false, uni = false;
  bool toSpace = false;    // cvta.to.SPACE (generic -> SPACE); plain cvta.SPACE goes SPACE -> generic
  int vecWidth = 1;        // ld/st .v2 / .v4
  std::vector<Operand> ops;
};

// A variable of a state space: shared/local/global/const arrays and scalars, parameters.
struct Symbol {
  std::string name;
  Space space = Space::Global;
  int64_t size = 0;   // bytes
  int align = 1;
  int64_t offset = 0;  // Shared/Local: offset in the CTA's/thread's window; Param: in the parameter buffer
  std::vector<uint8_t> init;  // global/const initialiser bytes (empty: zeros)
  int function = -1;  // the kernel whose symbol it is (-1: module scope)
};

struct Function {
  std::string name;
  bool entry = false;
  int line = 0;
  std::vector<int> params;   // symbol indices, in order
  int64_t paramBytes = 0;
  int64_t sharedBytes = 0;   // this kernel's static shared memory (its own and module-scope shared symbols)
  int64_t localBytes = 0;    // per thread
  int registers = 0;         // register slots (names are per function)
  std::vector<std::string> registerNames;
  std::vector<Instr> code;
};

struct Module {
  std::string path;  // for messages
  std::vector<Function> functions;
  std::vector<Symbol> symbols;
  std::map<std::string, int> functionIndex;  // by name
  const Function* find(const std::string& name) const {
    auto it = functionIndex.find(name);
    return it == functionIndex.end() ? nullptr : &functions[static_cast<size_t>(it->second)];
  }
};

}  // namespace kc::ptx
