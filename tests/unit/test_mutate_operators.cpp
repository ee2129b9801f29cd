// The mutation operators of `kcontract mutate` (mutate/operators.h) on a small kernel: which
// mutants each makes, their ids, families and exact diffs; what the entry reaches; the
// source a mutant is built from; and the located error of a file libclang cannot parse.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

#include "mutate/ast.h"
#include "mutate/families.h"
#include "mutate/mutant.h"
#include "mutate/operators.h"

using namespace kc::mutate;
namespace fs = std::filesystem;

namespace {

// Writes `text` as NAME in a fresh folder (with a local header beside it) and parses it.
struct Kernel {
  fs::path dir;
  KernelAst ast;
  Kernel(const std::string& name, const std::string& text) {
    dir = fs::temp_directory_path() / ("kc-mutate-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "local.h") << "#define KC_N 8\n";
    std::ofstream(dir / name) << text;
    ast = parseKernel((dir / name).string(), {});
  }
  ~Kernel() { fs::remove_all(dir); }
  std::vector<Mutant> mutants(const std::string& entry, const std::string& op) { return generateMutants(ast, entry, {op}); }
  std::string diff(const Mutant& m) {
    std::string d = mutantDiff(ast, m);
    return d.substr(d.find(" @@\n") + 4);  // without the header's path
  }
};

const char* kSource = R"(#include <math.h>
#include "local.h"
static float scale_f(float x) { return 0.5f * x; }
static float nan_max(float a, float b) { return a > b ? a : b; }
static float unused(float x) { return x + 1.0f; }
float kc_k(const float* x, float* y, long n, double* acc) {
  float s = 0.0f;
  long body = n - n % KC_N;
  for (long i = 0; i < body; ++i) s += x[i];
  for (long i = body; i < n; ++i) y[i] = scale_f(x[i]) - s;
  if (n > 4) y[0] = nan_max(y[0], (float)*acc);
  *acc = (double)s + sqrtf(s + 1e-5f);
  if (isnan(s)) return 0;
  return s / 2.0f;
}
)";

}  // namespace

TEST_CASE("mutate: the entry reaches the functions it calls and names, not the others") {
  Kernel k("k.c", kSource);
  std::vector<std::string> names;
  for (const Node* f : reachableFunctions(k.ast, "kc_k")) names.push_back(f->name);
  CHECK(names == std::vector<std::string>{"kc_k", "scale_f", "nan_max"});
  CHECK(reachableFunctions(k.ast, "kc_missing").empty());
}

TEST_CASE("mutate: arith swaps + and -, * and / on floating values only") {
  Kernel k("k.c", kSource);
  auto ms = k.mutants("kc_k", "arith");
  REQUIRE(ms.size() == 5);  // not `n - n % KC_N` (integers)
  CHECK(ms[0].id == "arith@3:45");
  CHECK(ms[0].family == "value");
  CHECK(ms[0].function == "scale_f");
  CHECK(k.diff(ms[0]) == "-static float scale_f(float x) { return 0.5f * x; }\n"
                         "+static float scale_f(float x) { return 0.5f / x; }\n");
  CHECK(ms[1].id == "arith@10:56");  // `- s`
  CHECK(ms[2].id == "arith@12:20");  // (double)s + sqrtf(...)
  CHECK(k.diff(ms[3]) == "-  *acc = (double)s + sqrtf(s + 1e-5f);\n"
                         "+  *acc = (double)s + sqrtf(s - 1e-5f);\n");
  CHECK(ms[4].id == "arith@14:12");
  CHECK(ms[4].description == "`/` -> `*`");
}

TEST_CASE("mutate: relational flips a bound (tail family) and a value comparison (value family)") {
  Kernel k("k.c", kSource);
  auto ms = k.mutants("kc_k", "relational");
  REQUIRE(ms.size() == 4);
  CHECK(ms[0].id == "relational@4:51");
  CHECK(ms[0].family == "value");
  CHECK(ms[1].id == "relational@9:22");
  CHECK(ms[1].family == "tail");
  CHECK(k.diff(ms[1]) == "-  for (long i = 0; i < body; ++i) s += x[i];\n"
                         "+  for (long i = 0; i <= body; ++i) s += x[i];\n");
  CHECK(ms[3].id == "relational@11:9");
  CHECK(ms[3].description == "`>` -> `>=`");
}

TEST_CASE("mutate: accumulate-to-assign, precision and a widening cast dropped") {
  Kernel k("k.c", kSource);
  auto acc = k.mutants("kc_k", "accumulate");
  REQUIRE(acc.size() == 1);
  CHECK(acc[0].family == "accumulator");
  CHECK(k.diff(acc[0]) == "-  for (long i = 0; i < body; ++i) s += x[i];\n"
                          "+  for (long i = 0; i < body; ++i) s = x[i];\n");
  auto prec = k.mutants("kc_k", "precision");
  REQUIRE(prec.size() == 1);
  CHECK(prec[0].description == "`float s` -> `_Float16 s`");
  CHECK(k.diff(prec[0]) == "-  float s = 0.0f;\n+  _Float16 s = 0.0f;\n");
  auto cast = k.mutants("kc_k", "cast");
  REQUIRE(cast.size() == 1);  // (double)s widens; (float)*acc narrows and stays
  CHECK(cast[0].family == "precision");
  CHECK(k.diff(cast[0]) == "-  *acc = (double)s + sqrtf(s + 1e-5f);\n"
                           "+  *acc = s + sqrtf(s + 1e-5f);\n");
}

TEST_CASE("mutate: guard, tail loop, off by one, stride and index width") {
  Kernel k("k.c", kSource);
  auto guard = k.mutants("kc_k", "guard");
  REQUIRE(guard.size() == 1);
  CHECK(k.diff(guard[0]) == "-  if (n > 4) y[0] = nan_max(y[0], (float)*acc);\n"
                            "+  if (1) y[0] = nan_max(y[0], (float)*acc);\n");
  auto tail = k.mutants("kc_k", "tail-loop");
  REQUIRE(tail.size() == 1);
  CHECK(tail[0].id == "tail-loop@10:3");
  CHECK(k.diff(tail[0]) == "-  for (long i = body; i < n; ++i) y[i] = scale_f(x[i]) - s;\n"
                           "+  /* tail loop dropped */;\n");
  auto off = k.mutants("kc_k", "off-by-one");
  REQUIRE(off.size() == 6);
  CHECK(off[0].description == "the loop starts at 1, not 0");
  CHECK(k.diff(off[1]) == "-  for (long i = 0; i < body; ++i) s += x[i];\n"
                          "+  for (long i = 0; i < body; ++i) s += x[i + 1];\n");
  auto width = k.mutants("kc_k", "index-width");
  REQUIRE(width.size() == 3);
  CHECK(width[0].family == "index-width");
  CHECK(k.diff(width[0]) == "-  long body = n - n % KC_N;\n+  int32_t body = n - n % KC_N;\n");
  Kernel s("s.c", "#include <stdint.h>\nvoid kc_s(float* y, const float* x, int64_t r, int64_t c, int64_t s0) {\n"
                  "  y[r * s0 + c] = x[r * s0 + c * 1];\n}\n");
  auto stride = s.mutants("kc_s", "stride");
  REQUIRE(stride.size() == 3);
  CHECK(stride[0].id == "stride@3:5");
  CHECK(s.diff(stride[0]) == "-  y[r * s0 + c] = x[r * s0 + c * 1];\n+  y[c] = x[r * s0 + c * 1];\n");
  CHECK(stride[2].id == "stride@3:21#2");
  CHECK(s.diff(stride[2]) == "-  y[r * s0 + c] = x[r * s0 + c * 1];\n+  y[r * s0 + c] = x[r * s0];\n");
}

TEST_CASE("mutate: scale, eps, NaN-unsafe max and the NaN check") {
  Kernel k("k.c", kSource);
  auto scale = k.mutants("kc_k", "scale");
  REQUIRE(scale.size() == 1);  // `s / 2.0f` divides: not a scale
  CHECK(k.diff(scale[0]) == "-static float scale_f(float x) { return 0.5f * x; }\n"
                            "+static float scale_f(float x) { return x; }\n");
  auto eps = k.mutants("kc_k", "eps");
  REQUIRE(eps.size() == 1);
  CHECK(eps[0].family == "eps");
  CHECK(k.diff(eps[0]) == "-  *acc = (double)s + sqrtf(s + 1e-5f);\n"
                          "+  *acc = (double)s + (sqrtf(s) + 1e-5f);\n");
  auto nan = k.mutants("kc_k", "nan-max");
  REQUIRE(nan.size() == 2);
  CHECK(nan[0].op == "nan-max");
  CHECK(k.diff(nan[0]) == "-static float nan_max(float a, float b) { return a > b ? a : b; }\n"
                          "+static float nan_max(float a, float b) { return fmaxf(a, b); }\n");
  CHECK(nan[1].op == "nan-check");
  CHECK(nan[1].family == "nan");
  CHECK(k.diff(nan[1]) == "-  if (isnan(s)) return 0;\n+  if (0) return 0;\n");
}

TEST_CASE("mutate: barrier removal and atomics on CUDA, barrier() on OpenCL") {
  Kernel cu("k.cu", "__global__ void kc_r(float* out, const float* x) {\n"
                    "  __syncthreads();\n  out[0] += x[0];\n}\n");
  auto bar = cu.mutants("kc_r", "barrier");
  REQUIRE(bar.size() == 1);
  CHECK(bar[0].family == "ordering");
  CHECK(cu.diff(bar[0]) == "-  __syncthreads();\n+  (void)0;\n");
  auto at = cu.mutants("kc_r", "atomics");
  REQUIRE(at.size() == 1);
  CHECK(cu.diff(at[0]) == "-  out[0] += x[0];\n+  atomicAdd(&out[0], x[0]);\n");
  Kernel cl("k.cl", "__kernel void kc_c(__global float* y) {\n  barrier(CLK_LOCAL_MEM_FENCE);\n  y[0] = 1.0f;\n}\n");
  auto clb = cl.mutants("kc_c", "barrier");
  REQUIRE(clb.size() == 1);
  CHECK(cl.diff(clb[0]) == "-  barrier(CLK_LOCAL_MEM_FENCE);\n+  (void)0;\n");
  CHECK(cl.mutants("kc_c", "precision").empty());  // no float local to narrow
}

TEST_CASE("mutate: a mutant's source includes its local headers by absolute path") {
  Kernel k("k.c", kSource);
  auto ms = k.mutants("kc_k", "accumulate");
  REQUIRE(ms.size() == 1);
  std::string src = mutantSource(k.ast, ms[0]);
  CHECK(src.find("#include \"" + (k.dir / "local.h").string() + "\"") != std::string::npos);
  CHECK(src.find("s = x[i];") != std::string::npos);
}

TEST_CASE("mutate: ids are stable and distinct") {
  Kernel k("k.c", kSource);
  auto a = generateMutants(k.ast, "kc_k");
  auto b = generateMutants(k.ast, "kc_k");
  REQUIRE(a.size() == b.size());
  std::set<std::string> ids;
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].id == b[i].id);
    ids.insert(a[i].id);
    CHECK(family(a[i].family) != nullptr);
  }
  CHECK(ids.size() == a.size());
}

TEST_CASE("mutate: families name their signatures") {
  CHECK(namedBy("nan", {"nan-swallowed"}));
  CHECK_FALSE(namedBy("nan", {"unclassified"}));
  CHECK(namedBy("value", {"wrong-row"}));
  CHECK_FALSE(namedBy("value", {"unclassified"}));
  CHECK(namedBy("tail", {"unwritten-cells"}));
  CHECK_FALSE(namedBy("precision", {"nan-swallowed"}));
}

TEST_CASE("mutate: a file libclang cannot parse is an error located at file:line:col") {
  fs::path dir = fs::temp_directory_path() / ("kc-mutate-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "bad.c") << "int kc_bad(void) {\n  return 1 +;\n}\n";
  try {
    parseKernel((dir / "bad.c").string(), {});
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(std::string(e.what()) == (dir / "bad.c").string() + ":2:13: error: expected expression");
  }
  std::ofstream(dir / "k.py") << "x = 1\n";
  CHECK_THROWS_WITH(parseKernel((dir / "k.py").string(), {}),
                    (dir / "k.py").string() + ": not a kernel source kcontract mutate can parse (.c, .cpp, .cu or .cl)");
  fs::remove_all(dir);
}
