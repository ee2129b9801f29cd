#pragma once
// The per-thread arithmetic of the PTX subset on raw register bits (docs/ptx.md, "Numerics"):
// integer ops at their width, IEEE f32/f64 with PTX's rounding modifiers (.rn .rz .rm .rp,
// set through the host FPU's rounding mode), .ftz and .sat, f16/bf16 through one rounding,
// cvt in every direction of the subset, setp's ordered and unordered comparisons, and the
// .approx transcendentals computed in double and rounded once to f32 (within the error the
// PTX ISA documents for them, so a kernel sees one value the hardware could give).
#include <cstdint>
#include <stdexcept>

#include "backends/ptx/ptx_ir.h"

namespace kc::ptx {

// A value the subset cannot compute (a rounding mode an instruction does not take): the
// interpreter reports it as an error naming the instruction.
struct AluError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bits of a register of `t`: the low typeBits(t) bits, the rest zero.
uint64_t truncateTo(Type t, uint64_t bits);
// A register's bits read as a signed / unsigned integer of `t`.
int64_t asSigned(Type t, uint64_t bits);

// Add .. Xor, Shl, Shr, Abs, Neg, Not, Popc, Clz, Brev, Bfe, Copysign, Ex2 .. Tanh: d from a, b, c.
uint64_t compute(const Instr& in, uint64_t a, uint64_t b, uint64_t c);
// setp: the comparison of a and b at in.type.
bool compare(const Instr& in, uint64_t a, uint64_t b);
// testp: the class test of a.
bool testClass(const Instr& in, uint64_t a);
// cvt from in.srcType to in.type.
uint64_t convert(const Instr& in, uint64_t a);

// An immediate float operand as bits of `t` (0f.. of an f64 instruction is widened).
uint64_t floatImmediate(Type t, double value);

}  // namespace kc::ptx
