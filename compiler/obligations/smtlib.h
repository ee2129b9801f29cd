#pragma once
// SMT-LIB2 terms and scripts, as text: no solver is linked here. Terms are immutable trees
// with a few local simplifications (constant Booleans, flattening of and/or, comparisons of
// constants); constants are written exactly (a double is the exact rational it holds); names
// are made valid SMT-LIB symbols and kept unique. Printing is deterministic: the same script
// always gives byte-identical text.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kc::obl::smt {

enum class Sort : uint8_t { Bool, Int, Real };
const char* sortName(Sort s);

struct Term;
using TermPtr = std::shared_ptr<const Term>;

struct Term {
  enum class Kind : uint8_t { Const, Symbol, App };
  Kind kind = Kind::Const;
  Sort sort = Sort::Real;
  std::string head;  // Const: the literal text; Symbol: the symbol as printed; App: the function
  std::vector<TermPtr> args;
  // Numeric constants whose value a double or an int64 holds exactly (for simplification).
  std::optional<double> real;
  std::optional<int64_t> integer;
  std::optional<bool> boolean;

  bool isConst() const { return kind == Kind::Const; }
};

// --- exact literals ----------------------------------------------------------------------------
// The exact decimal expansion of a finite double ("0.1000000000000000055511151231257827021181583404541015625",
// "-3.0", "1024.0"); empty for NaN or an infinity. Always has a '.' and at least one digit after it.
std::string exactDecimal(double v);
// The SMT-LIB text of the exact value of a finite double as a Real: a decimal when that is at
// most kMaxDecimalChars long, otherwise (/ N.0 D.0) with D a power of two; negatives as (- ...).
// Throws std::invalid_argument for NaN or an infinity.
inline constexpr size_t kMaxDecimalChars = 64;
std::string realLiteral(double v);
// Integers: 42, (- 42).
std::string intLiteral(int64_t v);

// --- symbols -----------------------------------------------------------------------------------
// True when s is an SMT-LIB simple symbol: not empty, made of letters, digits and
// ~!@$%^&*_-+=<>.?/ and not starting with a digit.
bool isSimpleSymbol(const std::string& s);
// The text that names s in a script: s itself when it is a simple symbol, else |s| (with any
// '|' or '\' replaced by '_', which a quoted symbol cannot hold).
std::string quoteSymbol(const std::string& s);
// Words that must not be declared: SMT-LIB reserved words and the theory functions cvc5 knows
// (abs, exp, sqrt, div, ...). `|abs|` is the same symbol as `abs`, so quoting cannot help.
bool isReservedSymbol(const std::string& s);

// Hands out unique, readable symbols: a wanted name is kept when it is free; a reserved word
// gets a trailing '_', a leading '@' or '.' (reserved for solvers) becomes '_', and a name
// already taken gets _2, _3, ... Keys are the callers' identities for the thing named: the
// same key always gets the same symbol.
class NameTable {
 public:
  std::string symbol(const std::string& key, const std::string& wanted);
  bool has(const std::string& key) const { return byKey_.count(key) != 0; }

 private:
  std::map<std::string, std::string> byKey_;
  std::set<std::string> used_;
};

// --- terms -------------------------------------------------------------------------------------
TermPtr boolConst(bool b);
TermPtr intConst(int64_t v);
TermPtr realConst(double v);                                     // exact value of v
TermPtr realRatio(const std::string& num, const std::string& den);  // num/den, decimal integers > 0
// base^exp for exp >= 0, exactly (SMT-LIB integers have no width limit).
TermPtr intPower(int64_t base, int64_t exp);
TermPtr symbol(const std::string& printed, Sort sort);
TermPtr app(const std::string& head, Sort sort, std::vector<TermPtr> args);

// Smart constructors with light simplification.
TermPtr mkNot(TermPtr a);
TermPtr mkAnd(std::vector<TermPtr> xs);
TermPtr mkOr(std::vector<TermPtr> xs);
TermPtr mkImplies(TermPtr a, TermPtr b);
TermPtr mkIte(TermPtr c, TermPtr a, TermPtr b);
TermPtr toReal(TermPtr a);  // Int -> Real; a Real stays as it is
// Arithmetic over the same sort (Int or Real); mixed sorts are converted to Real first.
TermPtr mkArith(const std::string& op, std::vector<TermPtr> xs);  // + - * /
TermPtr mkNeg(TermPtr a);
TermPtr mkCmp(const std::string& op, TermPtr a, TermPtr b);  // < <= > >= = distinct

// Printing: one line, or broken over lines once a line would pass `width` characters.
std::string print(const Term& t);
std::string printPretty(const Term& t, size_t indent = 0, size_t width = 96);

// --- scripts -----------------------------------------------------------------------------------
struct Script {
  std::vector<std::string> header;  // comment lines, written after "; "
  std::string logic;                // empty: chosen from the script's contents (see logicFor)
  std::vector<std::string> defineFuns;  // full commands
  std::vector<std::string> declareFuns;  // full commands, functions with arguments
  std::vector<std::pair<std::string, Sort>> consts;  // declare-const, in order of first use
  struct Assertion {
    std::string section;  // a comment line printed once before the first assertion of a run
    std::string comment;  // optional, printed before the assertion
    TermPtr term;
  };
  std::vector<Assertion> assertions;
  std::vector<std::string> sectionOrder;  // these sections print first, in this order
  bool getModel = false;

  void declareConst(const std::string& printed, Sort sort);
  void assertTerm(const std::string& section, const std::string& comment, TermPtr t);
  // QF_ + UF when functions are declared + N + IA / RA / IRA from the constants' sorts.
  std::string logicFor() const;
  std::string text() const;

 private:
  std::set<std::string> declared_;
};

}  // namespace kc::obl::smt
