// The compiled oracle (checker/device_oracle): the lowering's hoisting and refusals, and the
// host program against the interpreter, including the cell errors that send a case back to it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "checker/device_oracle/compiled_oracle.h"
#include "checker/device_oracle/lower.h"
#include "checker/device_oracle/oracle_engine.h"
#include "checker/oracle/evaluator.h"
#include "compiled_contract.h"

namespace {

namespace ko = kc::oracle;
namespace kd = kc::device_oracle;
using kc::numerics::DType;
using kc::test::compileContract;

const char* kSoftmax = R"(kcontract 1
kernel sm(x: T[R, H]) -> (y: T[R, H]) where T in {f32}, R in 1..64, H in 1..4096
contract t.sm@1 "softmax with the row sum inline" {
  scope { kernel sm }
  oracle f64 {
    m[r] = max(h, x[r, h])
    y[r, h] = exp(x[r, h] - m[r]) / sum(k, exp(x[r, k] - m[r]))
  }
  tolerance { tol[r, h] = 4 * eps(T) * y*[r, h] + ulp(T, y*[r, h]) }
  post { forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h] }
}
)";

ko::Tensor ramp(std::vector<int64_t> shape, double scale) {
  ko::Tensor t(shape);
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = std::sin(static_cast<double>(i) * 0.7) * scale;
  return t;
}

bool identical(const ko::Tensor& a, const ko::Tensor& b) {
  if (a.shape != b.shape) return false;
  for (size_t i = 0; i < a.data.size(); ++i)
    if (std::memcmp(&a.data[i], &b.data[i], sizeof(double)) != 0 && !(std::isnan(a.data[i]) && std::isnan(b.data[i])))
      return false;
  return true;
}

}  // namespace

TEST_CASE("compiled oracle: a reduction over fewer indices than its definition is hoisted once", "[compiled-oracle]") {
  auto p = compileContract(kSoftmax);
  kd::LowerResult lr = kd::lower(*p->ct, {{"T", DType::F32}});
  REQUIRE(lr.ok);
  // m, then y's row sum (hoisted over r), then y, then tol.
  REQUIRE(lr.lowered.computed.size() == 4);
  CHECK(lr.lowered.computed[0].name == "m");
  CHECK(lr.lowered.computed[1].name == "hoist.0");
  CHECK(lr.lowered.computed[1].hoisted);
  CHECK(lr.lowered.computed[1].extents.size() == 1);
  CHECK(lr.lowered.computed[2].name == "y");
  CHECK(lr.lowered.computed[3].tolerance);
  CHECK(lr.lowered.reads.size() == 1);
  CHECK(lr.lowered.source.find("kc_oracle_run") != std::string::npos);
}

TEST_CASE("compiled oracle: the host program gives the interpreter's values bit for bit", "[compiled-oracle]") {
  auto p = compileContract(kSoftmax);
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = ramp({5, 37}, 30.0);
  b.inputs["x"].data[40] = NAN;  // a NaN row: max and sum propagate it in both
  auto program = kd::CompiledOracle::build(*p->ct, b.dtypes, kd::Target::Host);
  INFO(program->why());
  REQUIRE(program->ok());
  ko::OracleResult want = ko::evalOracle(*p->ct, b);
  ko::OracleResult got = program->eval(b);
  for (const auto& [name, t] : want.oracle) CHECK(identical(got.oracle.at(name), t));
  for (const auto& [name, t] : want.tolerance) CHECK(identical(got.tolerance.at(name), t));
  CHECK(std::isnan(got.oracle.at("y")({1, 0})));
}

TEST_CASE("compiled oracle: the host program's values do not depend on its thread count", "[compiled-oracle]") {
  auto p = compileContract(kSoftmax);
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = ramp({64, 300}, 12.0);  // 19,200 cells: split over the threads
  auto program = kd::CompiledOracle::build(*p->ct, b.dtypes, kd::Target::Host);
  REQUIRE(program->ok());
  ko::OracleResult one = program->eval(b, nullptr, nullptr, 1);
  ko::OracleResult three = program->eval(b, nullptr, nullptr, 3);
  ko::OracleResult want = ko::evalOracle(*p->ct, b);
  CHECK(identical(three.oracle.at("y"), one.oracle.at("y")));
  CHECK(identical(three.tolerance.at("tol"), want.tolerance.at("tol")));
}

TEST_CASE("compiled oracle: the engine runs the program in its server and names the target", "[compiled-oracle]") {
  auto p = compileContract(kSoftmax);
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = ramp({3, 9}, 5.0);
  // The server is `kcontract __oracle-server`, not this test binary.
  const char* before = std::getenv("KC_SELF");
  std::string saved = before ? before : "";
  setenv("KC_SELF", KC_BINARY, 1);
  std::optional<ko::OracleResult> got;
  std::string why;
  {
    kd::OracleEngine engine(kd::Target::Host, "");
    got = engine.eval(*p->ct, b, why);
  }
  if (before) setenv("KC_SELF", saved.c_str(), 1);
  else unsetenv("KC_SELF");
  INFO(why);
  REQUIRE(got);
  ko::OracleResult want = ko::evalOracle(*p->ct, b);
  CHECK(identical(got->oracle.at("y"), want.oracle.at("y")));
  CHECK(identical(got->tolerance.at("tol"), want.tolerance.at("tol")));
}

TEST_CASE("compiled oracle: a read outside a tensor is an error of the program, as of the interpreter", "[compiled-oracle]") {
  auto p = compileContract(R"(kcontract 1
kernel sh(x: f32[N]) -> (y: f32[N]) where N in 1..64
contract t.shift@1 "a shift that reads past the end" {
  scope { kernel sh }
  oracle f64 { y[i] = x[i + 1] }
  tolerance { tol[i] = 0 * y*[i] }
  post { forall i: |y[i] - y*[i]| <= tol[i] }
}
)");
  ko::Bindings b;
  b.inputs["x"] = ramp({6}, 1.0);
  auto program = kd::CompiledOracle::build(*p->ct, {}, kd::Target::Host);
  REQUIRE(program->ok());
  CHECK_THROWS_WITH(program->eval(b), "the compiled oracle (host) failed: a read outside a tensor");
  CHECK_THROWS_AS(ko::evalOracle(*p->ct, b), ko::EvalError);
}

TEST_CASE("compiled oracle: an if-then-else evaluates only the branch it takes, as the interpreter does", "[compiled-oracle]") {
  auto p = compileContract(R"(kcontract 1
kernel sh(x: f32[N]) -> (y: f32[N]) where N in 1..64
contract t.guarded@1 "a guarded shift" {
  scope { kernel sh }
  oracle f64 { y[i] = if i + 1 < N then x[i + 1] + sum(k in 0..i, x[k]) else 0 }
  tolerance { tol[i] = 0 * y*[i] }
  post { forall i: |y[i] - y*[i]| <= tol[i] }
}
)");
  ko::Bindings b;
  b.inputs["x"] = ramp({7}, 2.0);
  auto program = kd::CompiledOracle::build(*p->ct, {}, kd::Target::Host);
  REQUIRE(program->ok());
  CHECK(identical(program->eval(b).oracle.at("y"), ko::evalOracle(*p->ct, b).oracle.at("y")));
}

TEST_CASE("compiled oracle: a statistic of a definition is not lowered, and says so", "[compiled-oracle]") {
  auto p = compileContract(R"(kcontract 1
kernel nm(x: f32[N]) -> (y: f32[N]) where N in 1..64
contract t.stat@1 "a tolerance from the largest y*" {
  scope { kernel nm }
  oracle f64 { y[i] = x[i] / 2 }
  tolerance { tol[i] = ulp(f32, max(y*)) + 0 * x[i] }
  post { forall i: |y[i] - y*[i]| <= tol[i] }
}
)");
  auto program = kd::CompiledOracle::build(*p->ct, {}, kd::Target::Host);
  CHECK_FALSE(program->ok());
  CHECK(program->why() == "not lowered: a statistic of the definition 'y'");
}

TEST_CASE("compiled oracle: --oracle values and the engine each job gets", "[compiled-oracle]") {
  CHECK(kd::OracleEngines::validate("auto").empty());
  CHECK(kd::OracleEngines::validate("gpu") == "--oracle is interpreter, host, cuda or auto; not 'gpu'");
  kd::OracleEngines engines;
  std::string why;
  CHECK(engines.forJob("auto", "host", why) == nullptr);
  CHECK(engines.forJob("interpreter", "cuda", why) == nullptr);
  kd::OracleEngine* host = engines.forJob("host", "host", why);
  REQUIRE(host != nullptr);
  CHECK(host->target() == kd::Target::Host);
  CHECK(engines.forJob("host", "cuda", why) == host);  // one engine per target, shared
}
