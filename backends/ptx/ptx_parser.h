#pragma once
// PTX text -> Module (ptx_ir.h): the subset nvcc -ptx writes for ordinary sm_90 kernels
// (docs/ptx.md lists it). Anything outside it is a ParseError naming the file, the line and
// the instruction or directive, never something skipped silently.
#include <stdexcept>
#include <string>

#include "backends/ptx/ptx_ir.h"

namespace kc::ptx {

struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `path` is only for messages ("FILE:LINE: ...").
Module parseModule(const std::string& text, const std::string& path);
Module parseFile(const std::string& path);

// Decodes an opcode with its modifiers ("setp.gtu.f32") into `in` (op, types, modifiers).
// Returns false for an instruction outside the subset.
bool decodeOpcode(const std::string& opcode, Instr& in);

}  // namespace kc::ptx
