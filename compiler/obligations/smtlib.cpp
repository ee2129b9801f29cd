#include "compiler/obligations/smtlib.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kc::obl::smt {

const char* sortName(Sort s) {
  switch (s) {
    case Sort::Bool: return "Bool";
    case Sort::Int: return "Int";
    case Sort::Real: return "Real";
  }
  return "?";
}

// --- exact literals ----------------------------------------------------------------------------

namespace {

// Decimal digit strings, most significant first, multiplied in place by a small factor.
void mulSmall(std::string& digits, int f) {
  int carry = 0;
  for (size_t i = digits.size(); i-- > 0;) {
    int d = (digits[i] - '0') * f + carry;
    digits[i] = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  while (carry) {
    digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
}

// |v| = m * 2^e with m odd (or zero).
void decompose(double v, uint64_t& m, int& e) {
  int ex = 0;
  double f = std::frexp(std::fabs(v), &ex);  // |v| = f * 2^ex, f in [0.5, 1)
  m = static_cast<uint64_t>(std::ldexp(f, 64 - 11));  // 53 significant bits
  e = ex - 53;
  if (m == 0) {
    e = 0;
    return;
  }
  while ((m & 1) == 0) {
    m >>= 1;
    ++e;
  }
}

std::string powerOfTwo(int k) {
  std::string d = "1";
  for (int i = 0; i < k; ++i) mulSmall(d, 2);
  return d;
}

}  // namespace

std::string exactDecimal(double v) {
  if (!std::isfinite(v)) return "";
  uint64_t m = 0;
  int e = 0;
  decompose(v, m, e);
  std::string sign = std::signbit(v) && m != 0 ? "-" : "";
  std::string digits = std::to_string(m);
  if (e >= 0) {
    for (int i = 0; i < e; ++i) mulSmall(digits, 2);
    return sign + digits + ".0";
  }
  int k = -e;  // m / 2^k = m * 5^k / 10^k
  for (int i = 0; i < k; ++i) mulSmall(digits, 5);
  if (digits.size() <= static_cast<size_t>(k)) digits.insert(0, static_cast<size_t>(k) + 1 - digits.size(), '0');
  std::string intPart = digits.substr(0, digits.size() - static_cast<size_t>(k));
  std::string frac = digits.substr(digits.size() - static_cast<size_t>(k));
  while (frac.size() > 1 && frac.back() == '0') frac.pop_back();
  return sign + intPart + "." + frac;
}

std::string realLiteral(double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("no SMT-LIB literal for a NaN or an infinity");
  uint64_t m = 0;
  int e = 0;
  decompose(v, m, e);
  bool neg = std::signbit(v) && m != 0;
  std::string body;
  std::string dec = exactDecimal(std::fabs(v));
  if (e >= 0 || dec.size() <= kMaxDecimalChars)
    body = dec;
  else
    body = "(/ " + std::to_string(m) + ".0 " + powerOfTwo(-e) + ".0)";
  return neg ? "(- " + body + ")" : body;
}

std::string intLiteral(int64_t v) {
  if (v >= 0) return std::to_string(v);
  // -INT64_MIN does not fit: print the magnitude from the unsigned value.
  uint64_t mag = static_cast<uint64_t>(-(v + 1)) + 1;
  return "(- " + std::to_string(mag) + ")";
}

// --- symbols -----------------------------------------------------------------------------------

namespace {

bool isSymbolChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '~': case '!': case '@': case '$': case '%': case '^': case '&': case '*': case '_':
    case '-': case '+': case '=': case '<': case '>': case '.': case '?': case '/':
      return true;
    default: return false;
  }
}

}  // namespace

bool isSimpleSymbol(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), isSymbolChar);
}

std::string quoteSymbol(const std::string& s) {
  if (isSimpleSymbol(s)) return s;
  std::string q = "|";
  for (char c : s) q += (c == '|' || c == '\\') ? '_' : c;
  return q + "|";
}

bool isReservedSymbol(const std::string& s) {
  static const std::set<std::string> words = {
      // SMT-LIB reserved words
      "_", "!", "as", "let", "exists", "forall", "match", "par", "BINARY", "DECIMAL", "HEXADECIMAL",
      "NUMERAL", "STRING",
      // core, ints, reals and the arithmetic extensions cvc5 parses
      "true", "false", "not", "and", "or", "xor", "=>", "=", "distinct", "ite", "+", "-", "*", "/",
      "div", "mod", "abs", "<", "<=", ">", ">=", "to_real", "to_int", "is_int", "divisible", "exp",
      "sin", "cos", "tan", "csc", "sec", "cot", "arcsin", "arccos", "arctan", "arccsc", "arcsec",
      "arccot", "sqrt", "pi", "real.pi", "iand", "int.pow2", "^", "Int", "Real", "Bool"};
  return words.count(s) != 0;
}

std::string NameTable::symbol(const std::string& key, const std::string& wanted) {
  auto it = byKey_.find(key);
  if (it != byKey_.end()) return it->second;
  std::string base = wanted.empty() ? "v" : wanted;
  if (base[0] == '@' || base[0] == '.') base[0] = '_';
  if (isReservedSymbol(base)) base += "_";
  std::string printed = quoteSymbol(base);
  for (int n = 2; used_.count(printed); ++n) printed = quoteSymbol(base + "_" + std::to_string(n));
  used_.insert(printed);
  byKey_.emplace(key, printed);
  return printed;
}

// --- terms -------------------------------------------------------------------------------------

namespace {

std::shared_ptr<Term> make(Term::Kind k, Sort s, std::string head) {
  auto t = std::make_shared<Term>();
  t->kind = k;
  t->sort = s;
  t->head = std::move(head);
  return t;
}

bool isTrue(const TermPtr& t) { return t->boolean && *t->boolean; }
bool isFalse(const TermPtr& t) { return t->boolean && !*t->boolean; }

// The exact value of a numeric constant as a double, when a double holds it.
std::optional<double> numericValue(const Term& t) {
  if (t.integer) {
    double d = static_cast<double>(*t.integer);
    if (d == static_cast<double>(*t.integer) && std::fabs(d) < 9007199254740992.0) return d;
    return std::nullopt;
  }
  return t.real;
}

}  // namespace

TermPtr boolConst(bool b) {
  auto t = make(Term::Kind::Const, Sort::Bool, b ? "true" : "false");
  t->boolean = b;
  return t;
}

TermPtr intConst(int64_t v) {
  auto t = make(Term::Kind::Const, Sort::Int, intLiteral(v));
  t->integer = v;
  return t;
}

TermPtr realConst(double v) {
  auto t = make(Term::Kind::Const, Sort::Real, realLiteral(v));
  t->real = v == 0 ? 0.0 : v;
  return t;
}

TermPtr realRatio(const std::string& num, const std::string& den) {
  if (den == "1") return make(Term::Kind::Const, Sort::Real, num + ".0");
  return make(Term::Kind::Const, Sort::Real, "(/ " + num + ".0 " + den + ".0)");
}

TermPtr intPower(int64_t base, int64_t exp) {
  int64_t acc = 1;
  bool fits = true;
  for (int64_t k = 0; k < exp && fits; ++k) fits = !__builtin_mul_overflow(acc, base, &acc);
  if (fits) return intConst(acc);
  bool neg = base < 0 && exp % 2 == 1;
  uint64_t mag = base < 0 ? static_cast<uint64_t>(-(base + 1)) + 1 : static_cast<uint64_t>(base);
  std::string digits = "1";
  for (int64_t k = 0; k < exp; ++k) {
    unsigned __int128 carry = 0;
    for (size_t i = digits.size(); i-- > 0;) {
      unsigned __int128 d = static_cast<unsigned __int128>(digits[i] - '0') * mag + carry;
      digits[i] = static_cast<char>('0' + static_cast<int>(d % 10));
      carry = d / 10;
    }
    while (carry) {
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(carry % 10)));
      carry /= 10;
    }
  }
  return make(Term::Kind::Const, Sort::Int, neg ? "(- " + digits + ")" : digits);
}

TermPtr symbol(const std::string& printed, Sort sort) { return make(Term::Kind::Symbol, sort, printed); }

TermPtr app(const std::string& head, Sort sort, std::vector<TermPtr> args) {
  auto t = make(Term::Kind::App, sort, head);
  t->args = std::move(args);
  return t;
}

TermPtr mkNot(TermPtr a) {
  if (a->boolean) return boolConst(!*a->boolean);
  if (a->kind == Term::Kind::App && a->head == "not") return a->args[0];
  return app("not", Sort::Bool, {std::move(a)});
}

namespace {

TermPtr junction(const std::string& op, std::vector<TermPtr> xs) {
  bool isAnd = op == "and";
  std::vector<TermPtr> kept;
  std::set<std::string> seen;
  for (auto& x : xs) {
    if (isAnd ? isTrue(x) : isFalse(x)) continue;
    if (isAnd ? isFalse(x) : isTrue(x)) return boolConst(!isAnd);
    std::vector<TermPtr> parts;
    if (x->kind == Term::Kind::App && x->head == op)
      parts = x->args;
    else
      parts.push_back(x);
    for (auto& p : parts)
      if (seen.insert(print(*p)).second) kept.push_back(p);
  }
  if (kept.empty()) return boolConst(isAnd);
  if (kept.size() == 1) return kept[0];
  return app(op, Sort::Bool, std::move(kept));
}

}  // namespace

TermPtr mkAnd(std::vector<TermPtr> xs) { return junction("and", std::move(xs)); }
TermPtr mkOr(std::vector<TermPtr> xs) { return junction("or", std::move(xs)); }

TermPtr mkImplies(TermPtr a, TermPtr b) {
  if (isTrue(a)) return b;
  if (isFalse(a) || isTrue(b)) return boolConst(true);
  if (isFalse(b)) return mkNot(a);
  return app("=>", Sort::Bool, {std::move(a), std::move(b)});
}

TermPtr mkIte(TermPtr c, TermPtr a, TermPtr b) {
  if (isTrue(c)) return a;
  if (isFalse(c)) return b;
  if (a->sort != b->sort) {
    a = toReal(a);
    b = toReal(b);
  }
  Sort s = a->sort;
  return app("ite", s, {std::move(c), std::move(a), std::move(b)});
}

TermPtr toReal(TermPtr a) {
  if (a->sort != Sort::Int) return a;
  if (a->integer) {
    int64_t v = *a->integer;
    uint64_t mag = v >= 0 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(-(v + 1)) + 1;
    auto t = make(Term::Kind::Const, Sort::Real,
                  v >= 0 ? std::to_string(mag) + ".0" : "(- " + std::to_string(mag) + ".0)");
    if (auto d = numericValue(*a)) t->real = *d;
    return t;
  }
  return app("to_real", Sort::Real, {std::move(a)});
}

TermPtr mkNeg(TermPtr a) {
  if (a->integer && *a->integer != INT64_MIN) return intConst(-*a->integer);
  if (a->real && a->kind == Term::Kind::Const) return realConst(-*a->real);
  const Sort sort = a->sort;  // read before the move: argument evaluation order is unspecified
  return app("-", sort, {std::move(a)});
}

TermPtr mkArith(const std::string& op, std::vector<TermPtr> xs) {
  bool anyReal = std::any_of(xs.begin(), xs.end(), [](const TermPtr& t) { return t->sort == Sort::Real; });
  if (anyReal)
    for (auto& x : xs) x = toReal(x);
  Sort s = anyReal ? Sort::Real : Sort::Int;
  if (s == Sort::Int && op != "/" &&
      std::all_of(xs.begin(), xs.end(), [](const TermPtr& t) { return t->integer.has_value(); })) {
    int64_t acc = *xs[0]->integer;
    bool ok = true;
    for (size_t i = 1; i < xs.size() && ok; ++i) {
      int64_t b = *xs[i]->integer;
      if (op == "+") ok = !__builtin_add_overflow(acc, b, &acc);
      else if (op == "-") ok = !__builtin_sub_overflow(acc, b, &acc);
      else if (op == "*") ok = !__builtin_mul_overflow(acc, b, &acc);
      else ok = false;
    }
    if (ok && xs.size() > 1) return intConst(acc);
  }
  // Drop identities: x + 0, x * 1, x - 0, x / 1.
  auto isValue = [](const TermPtr& t, double v) {
    auto d = numericValue(*t);
    return t->isConst() && d && *d == v;
  };
  bool assoc = op == "+" || op == "*";
  if (op == "-" && xs.size() == 1) return mkNeg(xs[0]);
  std::vector<TermPtr> kept;
  for (size_t i = 0; i < xs.size(); ++i) {
    bool identity = (op == "+" && isValue(xs[i], 0)) || (op == "*" && isValue(xs[i], 1)) ||
                    (i > 0 && op == "-" && isValue(xs[i], 0)) || (i > 0 && op == "/" && isValue(xs[i], 1));
    if (!identity) kept.push_back(xs[i]);
  }
  if (kept.empty()) return s == Sort::Real ? realConst(assoc && op == "*" ? 1 : 0) : intConst(op == "*" ? 1 : 0);
  if (kept.size() == 1) return kept[0];
  return app(op, s, std::move(kept));
}

TermPtr mkCmp(const std::string& op, TermPtr a, TermPtr b) {
  if (a->sort != b->sort && a->sort != Sort::Bool && b->sort != Sort::Bool) {
    a = toReal(a);
    b = toReal(b);
  }
  if (a->isConst() && b->isConst()) {
    if (a->boolean && b->boolean && (op == "=" || op == "distinct"))
      return boolConst((*a->boolean == *b->boolean) == (op == "="));
    std::optional<double> x = numericValue(*a), y = numericValue(*b);
    if (x && y) {
      if (op == "<") return boolConst(*x < *y);
      if (op == "<=") return boolConst(*x <= *y);
      if (op == ">") return boolConst(*x > *y);
      if (op == ">=") return boolConst(*x >= *y);
      if (op == "=") return boolConst(*x == *y);
      if (op == "distinct") return boolConst(*x != *y);
    }
  }
  return app(op, Sort::Bool, {std::move(a), std::move(b)});
}

// --- printing ----------------------------------------------------------------------------------

std::string print(const Term& t) {
  if (t.kind != Term::Kind::App) return t.head;
  std::string s = "(" + t.head;
  for (const auto& a : t.args) s += " " + print(*a);
  return s + ")";
}

std::string printPretty(const Term& t, size_t indent, size_t width) {
  std::string flat = print(t);
  if (t.kind != Term::Kind::App || indent + flat.size() <= width) return flat;
  std::string s = "(" + t.head;
  std::string pad(indent + 2, ' ');
  for (const auto& a : t.args) s += "\n" + pad + printPretty(*a, indent + 2, width);
  return s + ")";
}

// --- scripts -----------------------------------------------------------------------------------

void Script::declareConst(const std::string& printed, Sort sort) {
  if (declared_.insert(printed).second) consts.emplace_back(printed, sort);
}

void Script::assertTerm(const std::string& section, const std::string& comment, TermPtr t) {
  assertions.push_back({section, comment, std::move(t)});
}

namespace {

void scanSorts(const Term& t, bool& hasInt, bool& hasReal) {
  if (t.sort == Sort::Int) hasInt = true;
  if (t.sort == Sort::Real) hasReal = true;
  for (const auto& a : t.args) scanSorts(*a, hasInt, hasReal);
}

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

std::string Script::logicFor() const {
  bool hasInt = false, hasReal = false;
  for (const auto& [name, sort] : consts) {
    if (sort == Sort::Int) hasInt = true;
    if (sort == Sort::Real) hasReal = true;
  }
  for (const auto& a : assertions) scanSorts(*a.term, hasInt, hasReal);
  std::string l = "QF_";
  if (!declareFuns.empty()) l += "UF";
  l += "N";
  l += hasInt && hasReal ? "IRA" : hasInt ? "IA" : "RA";
  return l;
}

std::string Script::text() const {
  std::string s;
  for (const auto& h : header) s += "; " + oneLine(h) + "\n";
  s += "(set-option :produce-models true)\n";
  s += "(set-logic " + (logic.empty() ? logicFor() : logic) + ")\n";
  for (const auto& d : defineFuns) s += d + "\n";
  for (const auto& d : declareFuns) s += d + "\n";
  for (const auto& [name, sort] : consts) s += "(declare-const " + name + " " + sortName(sort) + ")\n";
  // Assertions are a set: print them grouped by section, sections in order of first
  // appearance, each section's assertions in the order they were made.
  std::vector<std::string> sections;
  for (const auto& sec : sectionOrder)
    if (std::any_of(assertions.begin(), assertions.end(), [&](const Assertion& a) { return a.section == sec; }))
      sections.push_back(sec);
  for (const auto& a : assertions)
    if (std::find(sections.begin(), sections.end(), a.section) == sections.end()) sections.push_back(a.section);
  std::vector<const Assertion*> ordered;
  for (const auto& sec : sections)
    for (const auto& a : assertions)
      if (a.section == sec) ordered.push_back(&a);
  std::string section;
  for (const Assertion* ap : ordered) {
    const Assertion& a = *ap;
    if (a.section != section) {
      section = a.section;
      if (!section.empty()) s += "; " + oneLine(section) + "\n";
    }
    if (!a.comment.empty()) s += ";   " + oneLine(a.comment) + "\n";
    std::string flat = print(*a.term);
    if (flat.size() + 9 <= 96)
      s += "(assert " + flat + ")\n";
    else
      s += "(assert\n  " + printPretty(*a.term, 2) + ")\n";
  }
  s += "(check-sat)\n";
  if (getModel) s += "(get-model)\n";
  return s;
}

}  // namespace kc::obl::smt
