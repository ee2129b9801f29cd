#include "compiler/ast/ast.h"

namespace kc::ast {

const char* sectionKeyword(SectionKind kind) {
  switch (kind) {
    case SectionKind::Scope: return "scope";
    case SectionKind::Pre: return "pre";
    case SectionKind::Post: return "post";
    case SectionKind::Oracle: return "oracle";
    case SectionKind::Tolerance: return "tolerance";
    case SectionKind::Protocol: return "protocol";
    case SectionKind::Signature: return "signature";
  }
  return "?";
}

const char* protocolKeyword(ProtocolItemKind kind) {
  switch (kind) {
    case ProtocolItemKind::Seeds: return "seeds";
    case ProtocolItemKind::Repeats: return "repeats";
    case ProtocolItemKind::Dims: return "dims";
    case ProtocolItemKind::Values: return "values";
    case ProtocolItemKind::Layouts: return "layouts";
    case ProtocolItemKind::Cells: return "cells";
    case ProtocolItemKind::Perturb: return "perturb";
    case ProtocolItemKind::Case: return "case";
  }
  return "?";
}

}  // namespace kc::ast
