// Measurement plans (compiler/plan): determinism, the softmax acceptance property, boundary
// candidates, pairwise coverage, every alternative on a tail shape, large-index cases,
// memory estimates and seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"

namespace {

struct Planned {
  kc::Compilation c;
  std::vector<kc::plan::Plan> plans;
};

std::unique_ptr<Planned> planText(const std::string& text, uint64_t seed = 0) {
  auto p = std::make_unique<Planned>();
  kc::compileText(p->c, "t.kcontract", text, kc::Stage::Sema);
  REQUIRE_FALSE(p->c.diags.hasErrors());
  kc::plan::Options o;
  o.seed = seed;
  p->plans = kc::plan::planProgram(*p->c.program, p->c.fileIds, o);
  return p;
}

std::unique_ptr<Planned> planFile(const std::string& path, uint64_t seed = 0) {
  auto p = std::make_unique<Planned>();
  kc::compile(p->c, {path}, kc::Stage::Sema);
  REQUIRE_FALSE(p->c.diags.hasErrors());
  kc::plan::Options o;
  o.seed = seed;
  p->plans = kc::plan::planProgram(*p->c.program, p->c.fileIds, o);
  return p;
}

const std::string kSoftmax = std::string(KC_SOURCE_DIR) + "/examples/softmax/softmax.kcontract";

int64_t dimOf(const kc::plan::Case& c, const std::string& name) {
  for (const auto& [n, v] : c.dims)
    if (n == name) return v;
  FAIL("no dim " << name);
  return 0;
}

const kc::plan::Layout& layoutOf(const kc::plan::Plan& p, const kc::plan::Case& c, const std::string& t) {
  for (const auto& [n, a] : c.layouts)
    if (n == t) return p.tensor(t)->layouts[a];
  FAIL("no layout for " << t);
  return p.tensor(t)->layouts[0];
}

const kc::plan::Distribution& valueOf(const kc::plan::Plan& p, const kc::plan::Case& c, const std::string& t) {
  for (const auto& [n, a] : c.values)
    if (n == t) return p.tensor(t)->values[a];
  FAIL("no values for " << t);
  return p.tensor(t)->values[0];
}

const char* kRows = R"(kcontract 1

kernel rows(x: T[R, H]) -> (y: T[R, H])
  where T in {f32, f16}, R in 1..65536, H in 1..262144

contract acme.rows@1 {
  scope {
    kernel rows
  }
  oracle f64 {
    y[r, h] = x[r, h]
  }
  post {
    forall r, h: y[r, h] == y*[r, h]
  }
  protocol {
    dims R in {3}, H in {10}
    layouts x in {padded(2)}
  }
}
)";

}  // namespace

TEST_CASE("plan: the same contract and seed give byte-identical JSON", "[plan]") {
  auto a = planFile(kSoftmax);
  auto b = planFile(kSoftmax);
  REQUIRE(a->plans.size() == 1);
  std::string ja = kc::plan::plansJson(a->plans), jb = kc::plan::plansJson(b->plans);
  CHECK(ja == jb);
  CHECK(kc::plan::plansText(a->plans) == kc::plan::plansText(b->plans));
  // Planning the same model twice gives the same bytes too.
  CHECK(kc::plan::plansJson(kc::plan::planProgram(*a->c.program, a->c.fileIds)) == ja);
  // Another seed changes the seeds and nothing else.
  auto s = planFile(kSoftmax, 1);
  REQUIRE(s->plans[0].cases.size() == a->plans[0].cases.size());
  CHECK(s->plans[0].cases[0].seeds != a->plans[0].cases[0].seeds);
  CHECK(s->plans[0].cases[0].dims == a->plans[0].cases[0].dims);
}

TEST_CASE("plan: softmax has a tail H, a non-contiguous layout and NaN-injected values", "[plan]") {
  auto p = planFile(kSoftmax);
  const kc::plan::Plan& plan = p->plans[0];
  CHECK(plan.contract == "acme.softmax.rows@1");
  CHECK(plan.dropped == 0);
  CHECK(plan.cases.size() <= 256);
  const std::vector<int64_t> tiles = {32, 64, 128, 256, 1024};
  CHECK(plan.dim("H")->tiles == tiles);
  bool tailH = false, strided = false, nan = false, tailStrided = false, tailNan = false;
  for (const auto& c : plan.cases) {
    int64_t h = dimOf(c, "H");
    bool tail = std::none_of(tiles.begin(), tiles.end(), [&](int64_t t) { return h % t == 0; });
    tailH = tailH || tail;
    bool nc = layoutOf(plan, c, "x").kind != "contiguous";
    const auto& d = valueOf(plan, c, "x");
    bool isNan = d.special && d.text == "special(nan: 1%)";
    strided = strided || nc;
    nan = nan || isNan;
    tailStrided = tailStrided || (tail && nc);
    tailNan = tailNan || (tail && isNan);
    if (isNan) {
      CHECK(d.baseText == "normal(0, 1)");
      CHECK(c.why == "special-values");
    }
  }
  CHECK(tailH);
  CHECK(strided);
  CHECK(nan);
  CHECK(tailStrided);
  CHECK(tailNan);
  // The classes' postconditions are tested, with their origins.
  REQUIRE(plan.post.size() == 5);
  CHECK(plan.post[3].origin == "std.exc.nan-propagation@1");
  CHECK(plan.cases[0].post.size() == 5);
  CHECK(plan.cases[0].repeats == 3);
  CHECK(plan.cases[0].seeds.size() == 4);
}

TEST_CASE("plan: boundary(tiles: 64) gives t-1, t, t+1, 1, a prime and the range ends", "[plan]") {
  kc::sema::DimInfo range;
  range.name = "H";
  range.lo = 1;
  range.hi = 8192;
  range.declared = true;
  kc::sema::ProtocolValue tile;
  tile.kind = kc::sema::ProtocolValue::Kind::Int;
  tile.i = 64;
  kc::sema::ProtocolValue gen;
  gen.kind = kc::sema::ProtocolValue::Kind::Call;
  gen.name = "boundary";
  gen.args.emplace_back("tiles", std::vector<kc::sema::ProtocolValue>{tile});
  kc::sema::ProtocolValue extra;
  extra.kind = kc::sema::ProtocolValue::Kind::Int;
  extra.i = 100000;  // outside the range: dropped
  kc::sema::ProtocolBinding b;
  b.target = "H";
  b.values = {gen, extra};
  kc::plan::DimPlan d = kc::plan::dimCandidates(range, false, {&b});
  CHECK(d.candidates == std::vector<int64_t>{1, 63, 64, 65, 97, 8192});
  CHECK(d.tiles == std::vector<int64_t>{64});
  CHECK(d.isTail(63));
  CHECK(d.isTail(97));
  CHECK_FALSE(d.isTail(64));
  CHECK_FALSE(d.isTail(8192));

  // No protocol values: {lo, 7, 64, 1000}, clipped to the range.
  range.hi = 100;
  kc::plan::DimPlan def = kc::plan::dimCandidates(range, false, {});
  CHECK(def.candidates == std::vector<int64_t>{1, 7, 64});
  CHECK_FALSE(def.fromProtocol);

  // A long range gives its ends and midpoint; a short one every value.
  kc::sema::ProtocolValue r;
  r.kind = kc::sema::ProtocolValue::Kind::Range;
  r.i = 10;
  r.hi = 90;
  kc::sema::ProtocolValue s = r;
  s.i = 2;
  s.hi = 4;
  b.values = {r, s};
  CHECK(kc::plan::dimCandidates(range, false, {&b}).candidates == std::vector<int64_t>{2, 3, 4, 10, 50, 90});
}

TEST_CASE("plan: the dimension tuples cover every pair of candidate values", "[plan]") {
  for (const std::vector<size_t>& sizes : std::vector<std::vector<size_t>>{{3, 4, 5}, {7, 2, 6, 3}, {5}, {2, 9}}) {
    auto tuples = kc::plan::pairwiseTuples(sizes);
    for (size_t a = 0; a < sizes.size(); ++a) {
      for (size_t b = a + 1; b < sizes.size(); ++b)
        for (size_t va = 0; va < sizes[a]; ++va)
          for (size_t vb = 0; vb < sizes[b]; ++vb)
            CHECK(std::any_of(tuples.begin(), tuples.end(), [&](const auto& t) { return t[a] == va && t[b] == vb; }));
      for (size_t va = 0; va < sizes[a]; ++va)
        CHECK(std::any_of(tuples.begin(), tuples.end(), [&](const auto& t) { return t[a] == va; }));
    }
    if (sizes.size() == 2) CHECK(tuples.size() == sizes[0] * sizes[1]);
    if (sizes.size() == 1) CHECK(tuples.size() == sizes[0]);
    CHECK(tuples.size() < 3 * 4 * 5 + 1);  // not a cartesian product of three or four dims
  }
  CHECK(kc::plan::pairwiseTuples({}).size() == 1);

  // With a filter: no tuple it refutes, and every pair some allowed tuple holds is covered.
  // The rule: dims 0 and 1 may not both be at their last value, and dim 2 must differ from dim 3.
  std::vector<size_t> sizes{3, 4, 2, 2};
  auto allowed = [](const std::vector<size_t>& t) {
    auto set = [&](size_t d) { return t[d] != kc::plan::kUnassigned; };
    if (set(0) && set(1) && t[0] == 2 && t[1] == 3) return false;
    return !(set(2) && set(3) && t[2] == t[3]);
  };
  auto tuples = kc::plan::pairwiseTuples(sizes, allowed);
  for (const auto& t : tuples) CHECK(allowed(t));
  for (size_t a = 0; a < sizes.size(); ++a)
    for (size_t b = a + 1; b < sizes.size(); ++b)
      for (size_t va = 0; va < sizes[a]; ++va)
        for (size_t vb = 0; vb < sizes[b]; ++vb) {
          bool possible = !(a == 0 && b == 1 && va == 2 && vb == 3) && !(a == 2 && b == 3 && va == vb);
          bool met = std::any_of(tuples.begin(), tuples.end(), [&](const auto& t) { return t[a] == va && t[b] == vb; });
          CHECK(met == possible);
        }

  // Through a contract: every pair of (M, N, K) candidates appears in some case.
  auto p = planText(R"(kcontract 1

kernel mm(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N])
  where M in 1..4096, N in 1..4096, K in 1..4096

contract acme.mm@1 {
  scope {
    kernel mm
  }
  oracle f64 {
    c[i, j] = sum(k, a[i, k] * b[k, j])
  }
  post {
    forall i, j: c[i, j] == c*[i, j]
  }
  protocol {
    dims M in {1, 2, 3}, N in boundary(tiles: 16), K in {5, 6, 7, 8}
    values a ~ normal(0, 1) | uniform(0, 1) | small_ints
  }
}
)");
  const auto& plan = p->plans[0];
  const char* names[] = {"M", "N", "K"};
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b)
      for (int64_t va : plan.dim(names[a])->candidates)
        for (int64_t vb : plan.dim(names[b])->candidates)
          CHECK(std::any_of(plan.cases.begin(), plan.cases.end(), [&](const kc::plan::Case& c) {
            return dimOf(c, names[a]) == va && dimOf(c, names[b]) == vb;
          }));
  size_t product = 1;
  for (const auto& d : plan.dims) product *= d.candidates.size();
  CHECK(plan.cases.size() < product);
  // Every distribution of a meets an N that 16 does not divide.
  for (size_t i = 0; i < plan.tensor("a")->values.size(); ++i)
    CHECK(std::any_of(plan.cases.begin(), plan.cases.end(), [&](const kc::plan::Case& c) {
      return c.tail && dimOf(c, "N") % 16 != 0 && valueOf(plan, c, "a").text == plan.tensor("a")->values[i].text;
    }));
}

TEST_CASE("plan: tensors that can pass 2^31 and 2^32 elements get large-index cases", "[plan]") {
  auto p = planText(R"(kcontract 1

kernel rows(x: f32[R, H]) -> (y: f32[R, H])
  where R in 1..65536, H in 1..262144

contract acme.big@1 {
  scope {
    kernel rows
  }
  oracle f64 {
    y[r, h] = x[r, h]
  }
  post {
    forall r, h: y[r, h] == y*[r, h]
  }
  protocol {
    dims R in {1, 2}, H in {1, 3}
  }
}
)");
  const auto& plan = p->plans[0];
  std::vector<const kc::plan::Case*> large;
  for (const auto& c : plan.cases)
    if (c.why == "large-index") large.push_back(&c);
  REQUIRE(large.size() == 2);  // x and y have one shape: one case per threshold
  const uint64_t two31 = uint64_t{1} << 31, two32 = uint64_t{1} << 32;
  // Neither dim alone reaches 2^31: H (the larger range) grows to its maximum, R just far
  // enough, then H shrinks back to the smallest value that still passes; no dim stays at
  // its range's end.
  CHECK(dimOf(*large[0], "R") == 8193);
  CHECK(dimOf(*large[0], "H") == 262113);
  CHECK(large[0]->largeIndex == 31);
  CHECK(large[0]->maxElements > two31);
  CHECK(large[0]->maxElements - 8193 <= two31);
  CHECK(large[1]->largeIndex == 32);
  CHECK(large[1]->maxElements > two32);
  CHECK(large[1]->maxElements - 16385 <= two32);
  CHECK(dimOf(*large[1], "R") == 16385);
  CHECK(dimOf(*large[1], "H") == 262129);
  CHECK(large[0]->memoryBytes == 2 * large[0]->maxElements * 4);
  CHECK_FALSE(large[0]->cells.all);  // sample(4096) + boundary
  CHECK(large[0]->cells.sample == 4096);
  CHECK(large[0]->cells.boundary);
  for (const auto& c : plan.cases)
    if (c.why != "large-index") CHECK(c.largeIndex == 0);

  // A scope that keeps every tensor under 2^31 elements: no large-index case.
  auto small = planText(R"(kcontract 1

kernel rows(x: f32[R, H]) -> (y: f32[R, H])
  where R in 1..65536, H in 1..262144

contract acme.small@1 {
  scope {
    kernel rows
    where R in 1..8, H in 1..1024
  }
  oracle f64 {
    y[r, h] = x[r, h]
  }
  post {
    forall r, h: y[r, h] == y*[r, h]
  }
}
)");
  for (const auto& c : small->plans[0].cases) CHECK(c.largeIndex == 0);
  CHECK(small->plans[0].dim("R")->candidates == std::vector<int64_t>{1, 7});
  CHECK(small->plans[0].dim("H")->candidates == std::vector<int64_t>{1, 7, 64, 1000});
}

TEST_CASE("plan: memory estimates count every tensor, padded rows included", "[plan]") {
  auto p = planText(kRows);
  const auto& plan = p->plans[0];
  std::set<std::string> seen;
  for (const auto& c : plan.cases) {
    if (c.why == "large-index") continue;
    CHECK(dimOf(c, "R") == 3);
    CHECK(dimOf(c, "H") == 10);
    std::string t = c.dtypes[0].second;
    seen.insert(t);
    // x: 3 rows of 10 + 2 padding; y: 3 x 10 contiguous.
    uint64_t bytes = t == "f32" ? 4 : 2;
    CHECK(c.memoryBytes == (3 * 12 + 3 * 10) * bytes);
    CHECK(c.maxElements == 30);
    CHECK(c.cells.all);
  }
  CHECK(seen == std::set<std::string>{"f16", "f32"});
}

TEST_CASE("plan: seeds derive from the base seed, the contract id and the case", "[plan]") {
  auto p = planText(kRows, 5);
  const auto& c = p->plans[0].cases;
  REQUIRE(c.size() >= 2);
  CHECK(c[0].id == "acme.rows@1#1");
  CHECK(c[1].id == "acme.rows@1#2");
  CHECK(c[0].seeds == std::vector<uint64_t>{kc::plan::caseSeed(5, "acme.rows@1", 1, 0)});
  CHECK(c[0].seeds != c[1].seeds);
  CHECK(kc::plan::caseSeed(5, "acme.rows@1", 1, 0) != kc::plan::caseSeed(6, "acme.rows@1", 1, 0));
  CHECK(kc::plan::caseSeed(5, "acme.rows@1", 1, 0) != kc::plan::caseSeed(5, "acme.rows@2", 1, 0));
  // Known values pin the hash: FNV-1a of "" and splitmix64(0).
  CHECK(kc::plan::fnv1a64("") == 14695981039346656037ull);
  CHECK(kc::plan::splitmix64(0) == 0xE220A8397B1DCDAFull);

  std::string text = kRows;
  text.replace(text.find("    dims R"), 0, "    seeds {3, 9}\n");
  auto e = planText(text);
  for (const auto& cs : e->plans[0].cases) CHECK(cs.seeds == std::vector<uint64_t>{3, 9});
}

TEST_CASE("plan: at most 256 cases per contract, the rest counted as dropped", "[plan]") {
  auto p = planText(R"(kcontract 1

kernel k(x: f32[A, B, C]) -> (y: f32[A, B, C])
  where A in 1..64, B in 1..64, C in 1..64

contract acme.many@1 {
  scope {
    kernel k
  }
  oracle f64 {
    y[a, b, c] = x[a, b, c]
  }
  post {
    forall a, b, c: y[a, b, c] == y*[a, b, c]
  }
  protocol {
    dims A in 1..16, B in 1..16, C in 1..16 + {40}
  }
}
)");
  const auto& plan = p->plans[0];
  CHECK(plan.cases.size() == 256);
  CHECK(plan.derived > 256);
  CHECK(plan.dropped == plan.derived - 256);
  CHECK(plan.cases.back().id == "acme.many@1#256");
  CHECK(kc::plan::plansText(p->plans).find("dropped") != std::string::npos);
}

TEST_CASE("plan: a vector's non-unit stride is step(2); a matrix's transposed stays", "[plan]") {
  // std.mem.strides@1 asks for transposed views: a vector has nothing to transpose, so it
  // gets step(2) (every other element) instead, and the kernel sees a stride that is not 1.
  auto p = planText(R"(kcontract 1
import std.classes
kernel k(x: f32[R, H]) -> (y: f32[R]) where R in 1..64, H in 1..64
contract t.rowsum@1 "row sums" applies std.mem.strides@1 {
  scope {
    kernel k
    layout x: strided, y: strided
  }
  oracle f64 {
    y[r] = sum(h, x[r, h])
  }
  tolerance {
    tol[r] = 1e-3 * sum(h, |x[r, h]|)
  }
  post {
    forall r: |y[r] - y*[r]| <= tol[r]
  }
}
)");
  const kc::plan::Plan& plan = p->plans[0];
  std::set<std::string> x, y;
  for (const auto& l : plan.tensor("x")->layouts) x.insert(l.text);
  for (const auto& l : plan.tensor("y")->layouts) y.insert(l.text);
  CHECK(x == std::set<std::string>{"contiguous", "transposed", "padded(3)", "offset(1)"});
  CHECK(y == std::set<std::string>{"contiguous", "step(2)", "padded(3)", "offset(1)"});
  const auto* step = &*std::find_if(plan.tensor("y")->layouts.begin(), plan.tensor("y")->layouts.end(),
                                    [](const kc::plan::Layout& l) { return l.text == "step(2)"; });
  CHECK(step->kind == "step");
  CHECK(step->n == 2);
}

TEST_CASE("plan: `values *` from a class leaves a bool or fixed-integer input to its own binding", "[plan]") {
  // std.exc.nan-propagation@2 brings special(nan: ...) to `*`: a bool mask or an i32 index
  // cannot hold a NaN, so only x takes it; the mask keeps its binding, the index small ints.
  auto p = planText(R"(kcontract 1
import std.classes
kernel k(x: T[R, H], mask: bool[R, H], idx: i32[R]) -> (y: T[R, H]) where T in {f32, f16}, R in 1..64, H in 1..64
contract t.masked@1 "masked copy" applies std.exc.nan-propagation@2 {
  scope {
    kernel k
  }
  oracle f64 {
    y[r, h] = x[r, h] * mask[r, h]
  }
  tolerance {
    tol[r, h] = 0 * x[r, h]
  }
  post {
    forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h]
  }
  protocol {
    values x ~ normal(0, 1), mask ~ integers(0, 1)
  }
}
)");
  const kc::plan::Plan& plan = p->plans[0];
  auto texts = [&](const char* name) {
    std::set<std::string> out;
    for (const auto& d : plan.tensor(name)->values) out.insert(d.text);
    return out;
  };
  CHECK(texts("mask") == std::set<std::string>{"integers(0, 1)"});
  CHECK(texts("idx") == std::set<std::string>{"small_ints"});
  CHECK(texts("x").size() > 1);  // normal(0, 1) and the class's special values
  CHECK(std::any_of(plan.tensor("x")->values.begin(), plan.tensor("x")->values.end(),
                    [](const kc::plan::Distribution& d) { return d.special; }));
}

TEST_CASE("plan: every standard op's cases fit one H200, large dims one at a time, every dtype", "[plan][ops]") {
  namespace fs = std::filesystem;
  const uint64_t h200 = 141000000000ull;  // bytes of device memory
  size_t ops = 0;
  for (const auto& e : fs::directory_iterator(fs::path(KC_SOURCE_DIR) / "stdlib/ops")) {
    if (e.path().extension() != ".kcontract") continue;
    auto p = planFile(e.path().string());
    for (const auto& plan : p->plans) {
      INFO(plan.contract);
      ++ops;
      std::set<std::string> largeDTypes;
      bool anyLarge = false;
      for (const auto& c : plan.cases) {
        INFO(c.id);
        // The streamed path holds every tensor and a pristine copy of the inputs: at most twice.
        CHECK(2 * c.memoryBytes <= h200);
        if (c.why != "large-index") continue;
        anyLarge = true;
        CHECK(c.largeIndex != 0);
        size_t large = 0;  // dims past 65536: one, the grown one (a second one only when needed)
        size_t atEnd = 0;
        for (const auto& [d, v] : c.dims) {
          large += v > 65536;
          atEnd += v == plan.dim(d)->hi;
        }
        CHECK(large <= 1);  // none where every dim stops at 65,536 (attention) and two grow
        CHECK(atEnd == 0);
        for (const auto& [var, dt] : c.dtypes) largeDTypes.insert(var + "=" + dt);
      }
      if (anyLarge)
        for (const auto& v : plan.dtypeVars)
          for (const auto& a : v.allowed) CHECK(largeDTypes.count(v.name + "=" + a));
    }
  }
  CHECK(ops >= 20);
}

TEST_CASE("plan: problemDims adds one case per dtype at exactly that shape, numbered last", "[plan]") {
  kc::Compilation c;
  kc::compile(c, {kSoftmax}, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  const kc::sema::ContractInfo* ct = nullptr;
  for (const auto& k : c.program->contracts)
    if (!k->isClass && k->id == "acme.softmax.rows@1") ct = k.get();
  REQUIRE(ct);
  kc::plan::Plan plain = kc::plan::makePlan(*ct);
  kc::plan::Options o;
  o.problemDims = {{"R", 12}, {"H", 4100}};
  kc::plan::Plan p = kc::plan::makePlan(*ct, o);
  REQUIRE(p.cases.size() > plain.cases.size());
  for (size_t i = 0; i < plain.cases.size(); ++i) CHECK(p.cases[i].id == plain.cases[i].id);  // theirs do not move
  for (size_t i = plain.cases.size(); i < p.cases.size(); ++i) {
    const kc::plan::Case& pc = p.cases[i];
    CHECK(pc.why == "problem");
    CHECK(dimOf(pc, "R") == 12);
    CHECK(dimOf(pc, "H") == 4100);
    CHECK(layoutOf(p, pc, "x").kind == "contiguous");
    CHECK(pc.number == i + 1);
  }
  o.problemDims = {{"R", 12}};
  CHECK_THROWS_WITH(kc::plan::makePlan(*ct, o), "no size for the dim 'H'");
  o.problemDims = {{"R", 0}, {"H", 4100}};
  CHECK_THROWS_WITH(kc::plan::makePlan(*ct, o), Catch::StartsWith("R=0 is outside what acme.softmax.rows@1 allows (1.."));
  o.problemDims = {{"R", 2}, {"H", 4100}, {"Q", 1}};
  CHECK_THROWS_WITH(kc::plan::makePlan(*ct, o), "acme.softmax.rows@1 has no dim 'Q'");
}

TEST_CASE("plan: a tensor grows through its extents, paddings at 0; past six dims each dim is tried first", "[plan]") {
  // y has nine dims, so every order of them (9! = 362,880) is not tried; P is no shape entry
  // of its own and stays at its least size, 0, in every large-index case.
  auto p = planText(R"(kcontract 1
kernel k(x: f32[A, B, C, D, E, F, G, H, L], p: i64) -> (y: f32[A, B, C, D, E, F, G, H, L + 2 * P])
  where A in 1..2^10, B in 1..2^10, C in 1..2^10, D in 1..2^10, E in 1..2^10, F in 1..2^10, G in 1..2^10, H in 1..2^10, L in 1..2^10, P in 0..2^10
contract t.k@1 "pad" {
  scope {
    kernel k
  }
  pre {
    p == P
  }
  oracle f64 {
    y[a, b, c, d, e, f, g, h, l] = 0
  }
  post {
    forall a, b, c, d, e, f, g, h, l: y[a, b, c, d, e, f, g, h, l] == y*[a, b, c, d, e, f, g, h, l]
  }
  protocol {
    dims A in {1}, B in {1}, C in {1}, D in {1}, E in {1}, F in {1}, G in {1}, H in {1}, L in {1, 3}, P in {0, 1}
    values x ~ normal(0, 1), p ~ integers(P, P)
  }
}
)");
  REQUIRE(p->plans.size() == 1);
  size_t large = 0;
  for (const auto& c : p->plans[0].cases) {
    if (c.why != "large-index") continue;
    ++large;
    INFO(c.id);
    CHECK(dimOf(c, "P") == 0);
    uint64_t cells = 1;
    for (const auto& [d, v] : c.dims)
      if (d != "P") cells *= static_cast<uint64_t>(v);
    CHECK(cells > (uint64_t{1} << 31) - 1);
  }
  CHECK(large > 0);
}
