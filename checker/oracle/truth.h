#pragma once
// Truth values of a domain (walker.h): bool where every condition is decided (f64, MPFR),
// Tri where an enclosure may leave it open (intervals). Logic<B> lets one walker apply
// Kleene's logic to both; on bool it folds to the plain operators.
#include <cstdint>

#include "compiler/ir/ir.h"

namespace kc::oracle::detail {

enum class Tri : uint8_t { False, True, Unknown };

template <class B>
struct Logic;

template <>
struct Logic<bool> {
  static constexpr bool of(bool b) { return b; }
  static constexpr bool known(bool) { return true; }
  static constexpr bool isTrue(bool b) { return b; }
  static constexpr bool negate(bool b) { return !b; }
  static constexpr bool unknown() { return false; }  // never asked for: every bool is known
};

template <>
struct Logic<Tri> {
  static constexpr Tri of(bool b) { return b ? Tri::True : Tri::False; }
  static constexpr bool known(Tri t) { return t != Tri::Unknown; }
  static constexpr bool isTrue(Tri t) { return t == Tri::True; }
  static constexpr Tri negate(Tri t) { return known(t) ? of(t == Tri::False) : t; }
  static constexpr Tri unknown() { return Tri::Unknown; }
};

// Whether comparison `op` holds for an ordering c: -1 less, 0 equal, 1 greater, 2 unordered.
constexpr bool holds(ir::Op op, int c) {
  switch (op) {
    case ir::Op::Lt: return c == -1;
    case ir::Op::Le: return c == -1 || c == 0;
    case ir::Op::Gt: return c == 1;
    case ir::Op::Ge: return c == 1 || c == 0;
    case ir::Op::Eq: return c == 0;
    default: return c != 0;
  }
}

}  // namespace kc::oracle::detail
