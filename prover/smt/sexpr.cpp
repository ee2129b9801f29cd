#include "prover/smt/sexpr.h"

#include <cctype>

namespace kc::smt {

std::string SExpr::str(size_t max) const {
  std::string s;
  switch (type) {
    case Type::List: {
      s = "(";
      for (size_t i = 0; i < items.size() && s.size() < max; ++i) s += (i ? " " : "") + items[i].str(max);
      s += ")";
      break;
    }
    case Type::Binary: s = "#b" + text; break;
    case Type::Hex: s = "#x" + text; break;
    case Type::String: s = "\"" + text + "\""; break;
    default: s = text; break;
  }
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

namespace {

bool isSymbolChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string("~!@$%^&*_-+=<>.?/").find(c) != std::string::npos;
}

class Lexer {
 public:
  explicit Lexer(const std::string& t) : t_(t) {}

  std::vector<SExpr> all() {
    std::vector<SExpr> out;
    std::vector<SExpr> stack;  // open lists
    for (;;) {
      skipSpace();
      if (i_ >= t_.size()) break;
      char c = t_[i_];
      if (c == '(') {
        SExpr l;
        l.type = SExpr::Type::List;
        l.line = line_;
        stack.push_back(std::move(l));
        ++i_;
        continue;
      }
      if (c == ')') {
        if (stack.empty()) fail("unbalanced ')'");
        ++i_;
        SExpr done = std::move(stack.back());
        stack.pop_back();
        push(out, stack, std::move(done));
        continue;
      }
      push(out, stack, atom());
    }
    if (!stack.empty()) fail("a list opened at line " + std::to_string(stack.back().line) + " is never closed");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw SExprError("SMT-LIB text, line " + std::to_string(line_) + ": " + what);
  }

  static void push(std::vector<SExpr>& out, std::vector<SExpr>& stack, SExpr e) {
    if (stack.empty())
      out.push_back(std::move(e));
    else
      stack.back().items.push_back(std::move(e));
  }

  void skipSpace() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == ';') {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  SExpr atom() {
    SExpr e;
    e.line = line_;
    char c = t_[i_];
    if (c == '|') {
      size_t end = t_.find('|', i_ + 1);
      if (end == std::string::npos) fail("unterminated quoted symbol");
      e.type = SExpr::Type::Symbol;
      e.text = t_.substr(i_ + 1, end - i_ - 1);
      for (char k : e.text)
        if (k == '\n') ++line_;
      i_ = end + 1;
      return e;
    }
    if (c == '"') {
      e.type = SExpr::Type::String;
      ++i_;
      for (;;) {
        if (i_ >= t_.size()) fail("unterminated string");
        if (t_[i_] == '"') {
          if (i_ + 1 < t_.size() && t_[i_ + 1] == '"') {
            e.text += '"';
            i_ += 2;
            continue;
          }
          ++i_;
          break;
        }
        if (t_[i_] == '\n') ++line_;
        e.text += t_[i_++];
      }
      return e;
    }
    if (c == '#') {
      if (i_ + 1 >= t_.size() || (t_[i_ + 1] != 'b' && t_[i_ + 1] != 'x')) fail("bad literal after '#'");
      bool bin = t_[i_ + 1] == 'b';
      i_ += 2;
      size_t start = i_;
      while (i_ < t_.size() && (bin ? (t_[i_] == '0' || t_[i_] == '1') : std::isxdigit(static_cast<unsigned char>(t_[i_]))))
        ++i_;
      if (i_ == start) fail(bin ? "empty #b literal" : "empty #x literal");
      e.type = bin ? SExpr::Type::Binary : SExpr::Type::Hex;
      e.text = t_.substr(start, i_ - start);
      return e;
    }
    size_t start = i_;
    if (c == ':') ++i_;
    while (i_ < t_.size() && isSymbolChar(t_[i_])) ++i_;
    if (i_ == start || (c == ':' && i_ == start + 1)) fail(std::string("unexpected character '") + c + "'");
    e.text = t_.substr(start, i_ - start);
    if (c == ':') {
      e.type = SExpr::Type::Keyword;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t dot = e.text.find('.');
      bool digits = true;
      for (size_t k = 0; k < e.text.size(); ++k)
        if (k != dot && !std::isdigit(static_cast<unsigned char>(e.text[k]))) digits = false;
      if (!digits || (dot != std::string::npos && (dot + 1 == e.text.size() || e.text.find('.', dot + 1) != std::string::npos)))
        fail("bad number '" + e.text + "'");
      e.type = dot == std::string::npos ? SExpr::Type::Numeral : SExpr::Type::Decimal;
    } else {
      e.type = SExpr::Type::Symbol;
    }
    return e;
  }

  const std::string& t_;
  size_t i_ = 0;
  size_t line_ = 1;
};

}  // namespace

std::vector<SExpr> parseSExprs(const std::string& text) { return Lexer(text).all(); }

}  // namespace kc::smt
