// The parser through the library API: source ranges on the AST, the `y*` lexing rule, the
// newline rule, and the formatter's promises (idempotent, parse(fmt(x)) == parse(x), every
// comment kept) over every .kcontract under tests/golden/fmt, tests/golden/parse and examples/.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/ast/dump.h"
#include "compiler/fmt/formatter.h"
#include "compiler/pipeline.h"

namespace fs = std::filesystem;

namespace {

// One parse of `text`; `c.files[0]` is the AST or null.
struct Parsed {
  kc::Compilation c;
  const kc::ast::File* file() const { return c.files.empty() ? nullptr : c.files[0].get(); }
};

std::unique_ptr<Parsed> parse(const std::string& text, const std::string& name = "t.kcontract") {
  auto p = std::make_unique<Parsed>();
  kc::compileText(p->c, name, text, kc::Stage::Parse);
  return p;
}

std::string diagText(const kc::Compilation& c) {
  std::ostringstream out;
  for (const auto& d : c.diags.sorted()) kc::printDiagnostic(out, c.sources, d, false);
  return out.str();
}

size_t errorCount(const kc::Compilation& c) {
  auto ds = c.diags.sorted();
  return static_cast<size_t>(
      std::count_if(ds.begin(), ds.end(), [](const kc::Diagnostic& d) { return d.severity == kc::Severity::Error; }));
}

// The text dump without ranges: what parse(fmt(x)) == parse(x) compares.
std::string tree(const std::string& text) {
  auto p = parse(text);
  INFO(diagText(p->c));
  REQUIRE(p->file());
  return kc::ast::dumpText(*p->file(), false);
}

// The first statement of the first section of the first contract.
const kc::ast::Expr& firstStatement(const kc::ast::File& f) {
  REQUIRE(!f.items.empty());
  REQUIRE(f.items[0]->kind == kc::ast::ItemKind::Contract);
  const auto& c = static_cast<const kc::ast::ContractDecl&>(*f.items[0]);
  REQUIRE(!c.sections.empty());
  REQUIRE((c.sections[0]->kind == kc::ast::SectionKind::Pre || c.sections[0]->kind == kc::ast::SectionKind::Post));
  const auto& s = static_cast<const kc::ast::ExprSection&>(*c.sections[0]);
  REQUIRE(!s.stmts.empty());
  return *s.stmts[0];
}

std::string preContract(const std::string& body) { return "kcontract 1\ncontract a@1 {\n  pre {\n    " + body + "\n  }\n}\n"; }

// The statements of the first contract's first section, as S-expressions, one a line.
std::string statements(const std::string& text) {
  std::string dump = tree(text);
  std::string out;
  std::istringstream in(dump);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("      ", 0) == 0) out += line.substr(6) + "\n";
  return out;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every .kcontract that is meant to parse: all of tests/golden/fmt and examples/, and the
// tests/golden/parse cases that expect success (those with a .out file).
std::vector<fs::path> wellFormedFiles() {
  std::vector<fs::path> files;
  fs::path root = KC_SOURCE_DIR;
  auto collect = [&](const fs::path& dir, bool recursive, bool needOut) {
    if (!fs::is_directory(dir)) return;
    auto take = [&](const fs::directory_entry& e) {
      if (!e.is_regular_file() || e.path().extension() != ".kcontract") return;
      if (needOut && !fs::exists(fs::path(e.path()).replace_extension(".out"))) return;
      files.push_back(e.path());
    };
    if (recursive)
      for (const auto& e : fs::recursive_directory_iterator(dir)) take(e);
    else
      for (const auto& e : fs::directory_iterator(dir)) take(e);
  };
  collect(root / "tests" / "golden" / "fmt", false, false);
  collect(root / "tests" / "golden" / "parse", false, true);
  collect(root / "examples", true, false);
  std::sort(files.begin(), files.end());
  return files;
}

using Pos = std::tuple<long, long>;

Pos pos(const nlohmann::json& p) { return {p.at("line").get<long>(), p.at("column").get<long>()}; }

// Walks every object in a JSON dump; each one with a "node" key must carry a valid range.
void checkRanges(const nlohmann::json& j, const std::string& path, size_t& nodes) {
  if (j.is_object()) {
    if (j.contains("node")) {
      ++nodes;
      INFO("node at " << path << ": " << j.at("node").get<std::string>());
      REQUIRE(j.contains("range"));
      const auto& r = j.at("range");
      Pos b = pos(r.at("begin")), e = pos(r.at("end"));
      CHECK(std::get<0>(b) >= 1);
      CHECK(std::get<1>(b) >= 1);
      CHECK(b <= e);
    }
    for (auto it = j.begin(); it != j.end(); ++it) checkRanges(it.value(), path + "/" + it.key(), nodes);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) checkRanges(j[i], path + "/" + std::to_string(i), nodes);
  }
}

// Children ranges lie inside their parent's range (for nodes that have children with ranges).
void checkNesting(const nlohmann::json& j, const nlohmann::json* parentRange, const std::string& path) {
  if (j.is_object()) {
    const nlohmann::json* here = parentRange;
    if (j.contains("node") && j.contains("range")) {
      const auto& r = j.at("range");
      if (parentRange && j.at("node") != "comment") {
        INFO("node at " << path << ": " << j.at("node").get<std::string>());
        CHECK(pos(parentRange->at("begin")) <= pos(r.at("begin")));
        CHECK(pos(r.at("end")) <= pos(parentRange->at("end")));
      }
      here = &r;
    }
    for (auto it = j.begin(); it != j.end(); ++it) checkNesting(it.value(), here, path + "/" + it.key());
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) checkNesting(j[i], parentRange, path + "/" + std::to_string(i));
  }
}

const char* kSample = R"(// A sample that uses every kind of node.
kcontract 1

import std.exc.nan-propagation
kernel softmax_f32(x: T[R, H], m: bool[]) -> (y: T[R, H]) where T in {f32, bf16}, H in 1..262144
  implements std.ops.softmax

op std.ops.softmax(x: T[R, H]) -> (y: T[R, H]) where R in {1, 2} {
  oracle mpfr(256) {
    y[r, h] = exp(x[r, h] - max(k, x[r, k])) / sum(k in 0..H - 1, exp(x[r, k]))
  }
}

class std.exc.c@1 "cls" {
  pre { true }
}

contract acme.softmax@1 "Softmax" applies std.exc.c@1 {
  scope {
    kernel softmax_f32
    op std.ops.softmax
    layout *: {contiguous}, x: row | col
    backend cuda
    where H in 1..8
  }
  pre { 0 < H <= 2^31 && !isnan(x) || (a -> b) }
  post {
    forall r, h in 0..H - 1: |y[r, h] - y*[r, h]| <= 2^-20 * | |y*[r, h]| | -> isnan(y*)
    exists i: if a then b % 2 == 0 else -c^2 > 0x1p-24 + 1.5e3
    prod(i, x[i]) + min(x) >= 0
  }
  tolerance { eps[r] = 4 * ulp(T, y*[r]) }
  protocol {
    seeds {1, 2, (2^31 + 1)}
    repeats 1..8
    dims H in boundary(tiles: 32, 64) + {1, 4097}
    values x ~ normal(0, 1) | special(nan: 1%), * ~ "f.bin"
    layouts x in {row}
    cells {-5%, 2^10}
    perturb {0}
  }
  signature acme.sig {
    fails when H > 2^31
    fails only when a
    wrong cells: r == 0
    error grows with H
    error <= 4 * eps
    differs run to run
  }
}
/* the end */
)";

}  // namespace

// ---------------------------------------------------------------------------------------
// Source ranges
// ---------------------------------------------------------------------------------------

TEST_CASE("a binary expression spans both operands", "[parse][ranges]") {
  auto p = parse(preContract("alpha + beta_2"));
  REQUIRE(p->file());
  const auto& e = firstStatement(*p->file());
  REQUIRE(e.kind == kc::ast::ExprKind::Binary);
  const auto& b = static_cast<const kc::ast::BinaryExpr&>(e);
  CHECK(b.op == "+");
  // line 4 is "    alpha + beta_2"
  CHECK(b.range.begin.line == 4);
  CHECK(b.range.begin.column == 5);
  CHECK(b.range.end.line == 4);
  CHECK(b.range.end.column == 19);
  CHECK(b.lhs->range.begin.offset == b.range.begin.offset);
  CHECK(b.lhs->range.end.column == 10);
  CHECK(b.rhs->range.begin.column == 13);
  CHECK(b.rhs->range.end.offset == b.range.end.offset);
  CHECK(b.range.str() == "4:5-4:19");
}

TEST_CASE("a binary expression over several lines spans from its first to its last operand", "[parse][ranges]") {
  auto p = parse(preContract("(a +\n      b) *\n      c"));
  REQUIRE(p->file());
  const auto& e = firstStatement(*p->file());
  REQUIRE(e.kind == kc::ast::ExprKind::Binary);
  CHECK(e.range.begin.line == 4);
  CHECK(e.range.begin.column == 5);
  CHECK(e.range.end.line == 6);
  CHECK(e.range.end.column == 8);
}

TEST_CASE("every node in the JSON dump of a sample contract has a range with begin <= end", "[parse][ranges]") {
  auto p = parse(kSample);
  INFO(diagText(p->c));
  REQUIRE(p->file());
  nlohmann::json j = kc::ast::dumpJson(*p->file(), true);
  size_t nodes = 0;
  checkRanges(j, "", nodes);
  CHECK(nodes > 150);
  checkNesting(j, nullptr, "");
  // Without ranges, no node has one.
  std::function<void(const nlohmann::json&)> noRanges = [&](const nlohmann::json& x) {
    if (x.is_object()) {
      if (x.contains("node")) CHECK(!(x.contains("range") && x.at("range").is_object() && x.at("range").contains("begin")));
      for (auto it = x.begin(); it != x.end(); ++it) noRanges(it.value());
    } else if (x.is_array()) {
      for (const auto& y : x) noRanges(y);
    }
  };
  noRanges(kc::ast::dumpJson(*p->file(), false));
}

TEST_CASE("every golden and example file has valid ranges on every node", "[parse][ranges]") {
  for (const auto& path : wellFormedFiles()) {
    INFO(path.string());
    auto p = parse(readFile(path), path.filename().string());
    INFO(diagText(p->c));
    REQUIRE(p->file());
    size_t nodes = 0;
    checkRanges(kc::ast::dumpJson(*p->file(), true), "", nodes);
    CHECK(nodes >= 1);
  }
}

// ---------------------------------------------------------------------------------------
// Operator precedence and associativity (docs/language.md §10.1)
// ---------------------------------------------------------------------------------------

TEST_CASE("operators bind by the precedence table, lowest to highest", "[parse][precedence]") {
  CHECK(statements(preContract("a -> b || c")) == "(-> a (|| b c))\n");
  CHECK(statements(preContract("a || b && c || d && e")) == "(|| (|| a (&& b c)) (&& d e))\n");
  CHECK(statements(preContract("a && b == c")) == "(&& a (cmp b == c))\n");
  CHECK(statements(preContract("a + b * c == d - e % f")) == "(cmp (+ a (* b c)) == (- d (% e f)))\n");
  CHECK(statements(preContract("!a && b || c -> d -> e")) == "(-> (|| (&& (! a) b) c) (-> d e))\n");
  CHECK(statements(preContract("-a * b")) == "(* (- a) b)\n");
  CHECK(statements(preContract("a * -b")) == "(* a (- b))\n");
  CHECK(statements(preContract("!a == b")) == "(cmp (! a) == b)\n");
  CHECK(statements(preContract("!!a == --b")) == "(cmp (! (! a)) == (- (- b)))\n");
}

TEST_CASE("`^` is right-associative and binds tighter than prefix `-`", "[parse][precedence]") {
  CHECK(statements(preContract("-2^2 == -4")) == "(cmp (- (^ 2 2)) == (- 4))\n");
  CHECK(statements(preContract("2^3^2")) == "(^ 2 (^ 3 2))\n");
  CHECK(statements(preContract("2^-1")) == "(^ 2 (- 1))\n");
  CHECK(statements(preContract("2^-1^2")) == "(^ 2 (- (^ 1 2)))\n");
  CHECK(statements(preContract("2 * 3^2")) == "(* 2 (^ 3 2))\n");
  CHECK(statements(preContract("x[r, h]^2")) == "(^ (index x r h) 2)\n");
  CHECK(statements(preContract("-x[i]^2")) == "(- (^ (index x i) 2))\n");
}

TEST_CASE("arithmetic and logical operators are left-associative, `->` right", "[parse][precedence]") {
  CHECK(statements(preContract("a - b - c")) == "(- (- a b) c)\n");
  CHECK(statements(preContract("a - b + c")) == "(+ (- a b) c)\n");
  CHECK(statements(preContract("a / b * c % d")) == "(% (* (/ a b) c) d)\n");
  CHECK(statements(preContract("a || b || c")) == "(|| (|| a b) c)\n");
  CHECK(statements(preContract("a && b && c")) == "(&& (&& a b) c)\n");
  CHECK(statements(preContract("a -> b -> c")) == "(-> a (-> b c))\n");
}

TEST_CASE("comparisons chain; parentheses break a chain", "[parse][precedence]") {
  CHECK(statements(preContract("0 <= i < N")) == "(cmp 0 <= i < N)\n");
  CHECK(statements(preContract("a == b != c > d >= e")) == "(cmp a == b != c > d >= e)\n");
  CHECK(statements(preContract("(a < b) <= c")) == "(cmp (paren (cmp a < b)) <= c)\n");
  CHECK(statements(preContract("a < b && c < d")) == "(&& (cmp a < b) (cmp c < d))\n");
}

TEST_CASE("a quantifier is a whole expression, a quantifier body or parenthesised", "[parse][precedence]") {
  CHECK(statements(preContract("forall i: a -> b")) == "(forall (i) (-> a b))\n");
  CHECK(statements(preContract("forall i: forall j: x[i, j]^2 >= 0")) ==
        "(forall (i) (forall (j) (cmp (^ (index x i j) 2) >= 0)))\n");
  CHECK(statements(preContract("a -> (forall i: b[i] > 0)")) == "(-> a (paren (forall (i) (cmp (index b i) > 0))))\n");
  auto p = parse(preContract("a -> forall i: b"));
  CHECK(!p->file());
  CHECK(errorCount(p->c) == 1);
}

TEST_CASE("any primary takes one index list, and operands of every kind combine", "[parse][precedence]") {
  CHECK(statements(preContract("f(x)[i] + (a + b)[i] * |x| * |y|")) ==
        "(+ (index (call f x) i) (* (* (index (paren (+ a b)) i) (abs x)) (abs y)))\n");
  CHECK(statements(preContract("sum(k in 0..H - 1, x[k]) - max(x, y)")) == "(- (sum (k 0 (- H 1)) (index x k)) (max x y))\n");
  CHECK(statements(preContract("if a then b else c + 1")) == "(if a b (+ c 1))\n");
  auto p = parse(preContract("x[i][j]"));
  CHECK(!p->file());
}

TEST_CASE("a long chain of a left-associative operator parses without deep nesting", "[parse][precedence]") {
  std::string sum = "a";
  for (int i = 0; i < 3000; ++i) sum += " + a";
  auto p = parse(preContract(sum));
  INFO(diagText(p->c));
  REQUIRE(p->file());
  const kc::ast::Expr* e = &firstStatement(*p->file());
  size_t depth = 0;
  while (e->kind == kc::ast::ExprKind::Binary) {
    e = static_cast<const kc::ast::BinaryExpr*>(e)->lhs.get();
    ++depth;
  }
  CHECK(depth == 3000);
}

// The parse runs on a large-stack thread kept per calling thread; a forked child (the checker
// forks) has no such thread: it must parse on one of its own and exit without joining it.
TEST_CASE("a forked child parses and exits", "[parse]") {
  REQUIRE(parse(preContract("a + b"))->file());  // the parent's parse thread exists now
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    bool ok = parse(preContract("a * b"))->file() != nullptr;
    std::exit(ok ? 0 : 1);  // runs the thread-local destructors
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(statements(preContract("a - b")) == "(- a b)\n");  // and the parent's thread still serves
}

// ---------------------------------------------------------------------------------------
// The `y*` lexing rule
// ---------------------------------------------------------------------------------------

TEST_CASE("`name*` is an oracle reference unless an operand starts right after the `*`", "[parse][lexer]") {
  CHECK(statements(preContract("y*")) == "y*\n");
  CHECK(statements(preContract("y*[r, h]")) == "(index y* r h)\n");
  CHECK(statements(preContract("isnan(y*)")) == "(call isnan y*)\n");
  CHECK(statements(preContract("|y - y*|")) == "(abs (- y y*))\n");
  CHECK(statements(preContract("y* * 2")) == "(* y* 2)\n");
  CHECK(statements(preContract("y*+1")) == "(+ y* 1)\n");
  CHECK(statements(preContract("y* == y")) == "(cmp y* == y)\n");
  // A letter, digit, `_` or `(` right after the `*` makes it a multiplication.
  CHECK(statements(preContract("x*y")) == "(* x y)\n");
  CHECK(statements(preContract("x * y")) == "(* x y)\n");
  CHECK(statements(preContract("x*2")) == "(* x 2)\n");
  CHECK(statements(preContract("x*_b")) == "(* x _b)\n");
  CHECK(statements(preContract("x*(y)")) == "(* x (paren y))\n");
  CHECK(statements(preContract("x*0x1p3")) == "(* x 0x1p3)\n");
  // Anything else ends the reference: `x*-1` is `x* - 1`.
  CHECK(statements(preContract("x*-1")) == "(- x* 1)\n");
}

TEST_CASE("a reference followed by an operand on the same line is an error", "[parse][lexer]") {
  auto p = parse(preContract("y* 2"));
  CHECK(!p->file());
  CHECK(errorCount(p->c) == 1);
}

// ---------------------------------------------------------------------------------------
// The newline rule
// ---------------------------------------------------------------------------------------

TEST_CASE("a newline ends a statement only after a token that can end one", "[parse][newline]") {
  // A trailing operator continues the line.
  CHECK(statements(preContract("a +\n      b")) == "(+ a b)\n");
  CHECK(statements(preContract("a &&\n      b ->\n      c")) == "(-> (&& a b) c)\n");
  CHECK(statements(preContract("0 <\n      n")) == "(cmp 0 < n)\n");
  // Inside ( or [ newlines never end a statement.
  CHECK(statements(preContract("(a\n      + b)")) == "(paren (+ a b))\n");
  CHECK(statements(preContract("f(a,\n      b)")) == "(call f a b)\n");
  CHECK(statements(preContract("x[\n      i\n    ]")) == "(index x i)\n");
  // After a name, a number, `)`, `]` or `|` the newline ends the statement.
  CHECK(statements(preContract("a\n    -b")) == "a\n(- b)\n");
  CHECK(statements(preContract("f(a)\n    -b")) == "(call f a)\n(- b)\n");
  CHECK(statements(preContract("|a|\n    -b")) == "(abs a)\n(- b)\n");
}

TEST_CASE("an unclosed `(` followed by a `contract` line gives exactly one error", "[parse][newline]") {
  auto p = parse("kcontract 1\nkernel k(x: T[N] -> (y: T)\ncontract acme.b@1 {\n  pre { c }\n}\n");
  CHECK(!p->file());
  auto ds = p->c.diags.sorted();
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].code == kc::DiagCode::UnexpectedToken);
  CHECK(ds[0].range.begin.line == 2);
}

TEST_CASE("an unclosed `(` in a statement is closed by the block's `}`: one error", "[parse][newline]") {
  auto p = parse("kcontract 1\ncontract acme.a@1 {\n  pre {\n    f(a\n  }\n  post { b }\n}\n");
  CHECK(!p->file());
  CHECK(errorCount(p->c) == 1);
}

// A soft keyword used as a name, a keyword as the last part of a qualified name, and a
// percent value all end a statement at the end of a line.
TEST_CASE("a keyword at the end of a line ends the statement", "[parse][newline]") {
  CHECK(parse("kcontract 1\nimport std.ops.max\nimport b\n")->file());
  CHECK(parse("kcontract 1\ncontract a@1 {\n  pre {\n    0 < values\n    1 > error\n  }\n}\n")->file());
  CHECK(parse("kcontract 1\ncontract a@1 {\n  signature s {\n    differs run to run\n    error grows with H\n  }\n}\n")
            ->file());
  CHECK(parse("kcontract 1\ncontract a@1 {\n  protocol {\n    cells 5%\n    seeds {1}\n  }\n}\n")->file());
}

TEST_CASE("`;` and newlines separate statements the same way", "[parse][newline]") {
  CHECK(tree("kcontract 1; import a; import b\n") == tree("kcontract 1\nimport a\nimport b\n"));
  CHECK(statements(preContract("a; b;; c;")) == "a\nb\nc\n");
}

TEST_CASE("CRLF line endings parse like LF", "[parse][newline]") {
  std::string lf = preContract("a +\n      b\n    c // x");
  std::string crlf;
  for (char ch : lf) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  CHECK(tree(crlf) == tree(lf));
}

// ---------------------------------------------------------------------------------------
// The formatter over the golden and example files
// ---------------------------------------------------------------------------------------

TEST_CASE("fmt is idempotent and keeps the tree and every comment", "[fmt]") {
  std::vector<fs::path> files = wellFormedFiles();
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    INFO(path.string());
    std::string text = readFile(path);
    auto p1 = parse(text, path.filename().string());
    INFO(diagText(p1->c));
    REQUIRE(p1->file());
    std::string once = kc::fmt::format(*p1->file(), p1->c.sources.file(p1->c.fileIds[0]));

    auto p2 = parse(once, path.filename().string());
    INFO("formatted:\n" << once << diagText(p2->c));
    CHECK(p2->file());  // fmt's output parses
    if (!p2->file()) continue;
    std::string twice = kc::fmt::format(*p2->file(), p2->c.sources.file(p2->c.fileIds[0]));
    CHECK(twice == once);  // idempotent

    CHECK(kc::ast::dumpText(*p2->file(), false) == kc::ast::dumpText(*p1->file(), false));  // parse(fmt(x)) == parse(x)

    // Every comment kept, in order (line endings inside block comments aside).
    auto texts = [](const kc::ast::File& f) {
      std::vector<std::string> v;
      for (const auto& c : f.comments) {
        std::string t;
        for (char ch : c.text)
          if (ch != '\r') t += ch;
        v.push_back(t);
      }
      return v;
    };
    CHECK(p2->file()->comments.size() == p1->file()->comments.size());
    CHECK(texts(*p2->file()) == texts(*p1->file()));
  }
}

TEST_CASE("fmt output is in canonical form: LF endings, no trailing blanks, one final newline", "[fmt]") {
  for (const auto& path : wellFormedFiles()) {
    INFO(path.string());
    auto p = parse(readFile(path), path.filename().string());
    REQUIRE(p->file());
    std::string out = kc::fmt::format(*p->file(), p->c.sources.file(p->c.fileIds[0]));
    REQUIRE(!out.empty());
    CHECK(out.back() == '\n');
    CHECK(out.find("\n\n\n") == std::string::npos);
    CHECK((out.find('\r') == std::string::npos || out.find("/*") != std::string::npos));
  }
}

// Comments are normalised on the way in: no CR, no blanks at line ends.
TEST_CASE("fmt output has no trailing blanks and no CR anywhere", "[fmt]") {
  for (const auto& path : wellFormedFiles()) {
    INFO(path.string());
    auto p = parse(readFile(path), path.filename().string());
    REQUIRE(p->file());
    std::string out = kc::fmt::format(*p->file(), p->c.sources.file(p->c.fileIds[0]));
    CHECK(out.find(" \n") == std::string::npos);
    CHECK(out.find('\r') == std::string::npos);
  }
}

// A comment before an item is not inside the item's empty block.
TEST_CASE("an empty block prints as {} even after a comment", "[fmt]") {
  auto p = parse("kcontract 1\n// c\ncontract b@1 {}\n");
  REQUIRE(p->file());
  CHECK(kc::fmt::format(*p->file(), p->c.sources.file(p->c.fileIds[0])) == "kcontract 1\n\n// c\ncontract b@1 {}\n");
}

TEST_CASE("fmt keeps comments in every position of a sample", "[fmt]") {
  const char* text =
      "/* a */ kcontract 1 // b\n"
      "// c\n"
      "kernel k(/* d */ x: T) -> (y: T) // e\n"
      "contract a@1 /* f */ { // g\n"
      "  pre {\n"
      "    a + // h\n"
      "      b /* i */\n"
      "    // j\n"
      "  }\n"
      "  // k\n"
      "}\n"
      "// l\n";
  auto p1 = parse(text);
  REQUIRE(p1->file());
  CHECK(p1->file()->comments.size() == 12);
  std::string once = kc::fmt::format(*p1->file(), p1->c.sources.file(p1->c.fileIds[0]));
  auto p2 = parse(once);
  INFO(once);
  REQUIRE(p2->file());
  CHECK(p2->file()->comments.size() == 12);
  for (const char* c : {"/* a */", "// b", "// c", "/* d */", "// e", "/* f */", "// g", "// h", "/* i */", "// j",
                        "// k", "// l"})
    CHECK(once.find(c) != std::string::npos);
}
