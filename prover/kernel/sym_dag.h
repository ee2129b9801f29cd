#pragma once
// Symbolic mode of the PTX engine (docs/ptx.md, "Symbolic mode"): the values a kernel computes
// from symbolic inputs, as a hash-consed DAG. A node is built once per distinct (operation,
// operands, rounding): a value used by many threads or many later operations is one node, so
// a length-n reduction stays n nodes and every SMT script is linear in the DAG's size.
//
// Float nodes are f32 values. Each rounded operation (add, sub, mul, fma, div at .rn .rz .rm
// .rp, sqrt) becomes, in SMT, a fresh Real constant r with |r - exact| <= u |exact| (u = 2^-24 for
// round-to-nearest, 2^-23 for the directed modes): the same set of values as r = exact (1 + d)
// with |d| <= u, written so that sums stay linear. Subnormals, overflow, NaN and infinities are
// not modelled (inputs are finite reals, as in the contract's own obligations). Operations
// whose result is exact are not rounded: x + 0, x * 1, x * 2^k, -x, |x|, min, max, select.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/obligations/smtlib.h"

namespace kc::kprove {

enum class NodeKind : uint8_t {
  Const,   // an f32 value (value)
  Input,   // one cell of a contract input (tensor, flat)
  Poison,  // a value computed from a never-written output cell (NaN on the GPU)
  Add, Sub, Mul, Fma, Div,  // rounded unless `exact`
  Sqrt,    // sqrt.rn: the exact root s (s >= 0, s s = a, for a >= 0), rounded
  Neg, Abs, Min, Max,
  Ite,     // a ? b : c, a a Bool node
  // Bool nodes
  BoolConst, Lt, Le, Gt, Ge, Eq, Ne, Not, And, Or, Xor
};

struct Node {
  NodeKind kind = NodeKind::Const;
  int a = -1, b = -1, c = -1;
  double value = 0;      // Const: the f32 value; BoolConst: 0 or 1
  int tensor = -1;       // Input: the input's index among the kernel's tensors
  int64_t flat = 0;      // Input: row-major cell index
  bool rounded = false;  // Add..Div: one rounding to f32
  bool directed = false; // .rz .rm .rp: u is one ulp
  int line = 0;          // the PTX line that first built it (for messages)
};

class Dag {
 public:
  const Node& node(int id) const { return nodes_[static_cast<size_t>(id)]; }
  size_t size() const { return nodes_.size(); }
  size_t roundings() const { return roundings_; }
  bool isBool(int id) const { return node(id).kind >= NodeKind::BoolConst; }

  int constant(float v);
  int boolConstant(bool v);
  int input(int tensor, int64_t flat);
  int poison();
  // Arithmetic with the simplifications above; a Poison operand gives Poison.
  int add(int a, int b, bool directed, int line);
  int sub(int a, int b, bool directed, int line);
  int mul(int a, int b, bool directed, int line);
  int fma(int a, int b, int c, bool directed, int line);
  int div(int a, int b, bool directed, int line);
  int sqrt(int a, bool directed, int line);
  int neg(int a);
  int abs(int a);
  int min(int a, int b);
  int max(int a, int b);
  int ite(int cond, int a, int b);
  // Comparisons (kind Lt..Ne) and Boolean connectives.
  int cmp(NodeKind kind, int a, int b);
  int notB(int a);
  int boolOp(NodeKind kind, int a, int b);

  // The f32 value of a node for concrete inputs (each rounded node rounded to nearest f32,
  // as the kernel does); NaN for Poison. inputValue(tensor, flat) gives an input cell.
  float evaluate(int id, const std::function<float(int, int64_t)>& inputValue, std::vector<float>& memo) const;

  bool isConst(int id) const { return node(id).kind == NodeKind::Const; }
  double constValue(int id) const { return node(id).value; }

 private:
  int make(Node n);
  std::vector<Node> nodes_;
  std::map<std::tuple<int, int, int, int, uint64_t, int64_t, int>, int> index_;
  size_t roundings_ = 0;
};

// Writes DAG nodes as SMT terms into a script: each rounded node a declared Real constant
// k_N with its bound asserted, each input through `inputTerm`. Nodes are written once.
//
// The summation idiom (docs/ptx.md, "Idiom templates"): a tree of rounded additions — add,
// sub and fma (a b + c, the product exact) — over n terms, in whatever order the kernel made
// it (a loop, a shared-memory tree, warp shuffles, split blocks added at the end), is written
// as one constant s with |s - sum of the terms| <= gamma_h sum of |terms|, h the most roundings
// on any term's path to the root (gamma_h = h u / (1 - h u): each term is multiplied by at most
// h factors (1 + d), |d| <= u). Every order the tree allows satisfies it, so a PROVED answer
// stays sound; the n - 1 rounding constants of the tree become one.
class SmtEmitter {
 public:
  SmtEmitter(const Dag& dag, obl::smt::Script& script, obl::smt::NameTable& names,
             std::function<obl::smt::TermPtr(int tensor, int64_t flat)> inputTerm,
             std::function<obl::smt::TermPtr(obl::smt::TermPtr)> absTerm = nullptr);
  obl::smt::TermPtr term(int id);  // throws std::runtime_error for Poison
  size_t roundingConstants() const { return rounded_; }
  // Summation idioms written, and the roundings of the DAG they stand for.
  size_t sums() const { return sums_; }
  size_t roundingsInSums() const { return sumRoundings_; }
  // Off: every rounding its own constant (unit tests compare the two).
  void useIdioms(bool on) { idioms_ = on; }

 private:
  struct SumTerm {
    int node = -1;      // the term's node; -1 with `a`/`b`: the exact product a b of an fma
    int a = -1, b = -1;
    bool negated = false;
    int depth = 0;      // roundings between the term and the root
  };
  // The terms of the addition tree under `id` (false when it is not worth an idiom).
  bool sumTerms(int id, std::vector<SumTerm>& out, size_t& roundings, bool& directed) const;
  obl::smt::TermPtr absOf(const obl::smt::TermPtr& t) const;

  const Dag& dag_;
  obl::smt::Script& script_;
  obl::smt::NameTable& names_;
  std::function<obl::smt::TermPtr(int, int64_t)> inputTerm_;
  std::function<obl::smt::TermPtr(obl::smt::TermPtr)> absTerm_;
  std::map<int, obl::smt::TermPtr> done_;
  size_t rounded_ = 0, sums_ = 0, sumRoundings_ = 0;
  bool idioms_ = true;
};

}  // namespace kc::kprove
