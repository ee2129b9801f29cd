// The one-table registries that other code checks against: dtype codes against the kernel
// ABI (also static_asserted in stdlib/numerics/dtype.cpp), backend names
// (backends/backend_names.h), perturbation kinds (backends/perturbations.h) and the
// built-in signatures (checker/report/builtin_signatures.h).
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "backends/backend.h"
#include "backends/backend_names.h"
#include "backends/perturbations.h"
#include "checker/report/builtin_signatures.h"
#include "kcontract/abi.h"
#include "stdlib/numerics/dtype.h"

using kc::numerics::DType;

TEST_CASE("registries: the dtype table is the kernel ABI's, with its sizes", "[registries][dtype]") {
  struct Abi {
    int code;
    const char* name;
    int bytes;
  };
  const Abi abi[] = {{KC_BOOL, "bool", 1}, {KC_U8, "u8", 1},         {KC_I8, "i8", 1},          {KC_I16, "i16", 2},
                     {KC_I32, "i32", 4},   {KC_I64, "i64", 8},       {KC_F8E4M3, "f8e4m3", 1}, {KC_F8E5M2, "f8e5m2", 1},
                     {KC_F16, "f16", 2},   {KC_BF16, "bf16", 2},     {KC_F32, "f32", 4},        {KC_F64, "f64", 8}};
  for (const Abi& a : abi) {
    auto t = kc::numerics::parseDType(a.name);
    REQUIRE(t);
    CHECK(static_cast<int>(*t) == a.code);
    CHECK(kc::numerics::sizeBytes(*t) == a.bytes);
  }
  CHECK(static_cast<int>(DType::TF32) == KC_F64 + 1);
  CHECK(kc::numerics::kDTypeCount == KC_F64 + 2);
}

TEST_CASE("registries: every backend name makes that backend", "[registries][backend]") {
  CHECK(kc::backend::backendNamesText() == "host, cuda, opencl, exec and ptx");
  CHECK(kc::backend::backendNames() == std::vector<std::string>{"host", "cuda", "opencl", "exec", "ptx"});
  for (std::string_view name : kc::backend::kBackendNames) {
    CHECK(kc::backend::isBackendName(name));
    CHECK(kc::backend::makeBackend(std::string(name))->name() == name);
  }
  CHECK_FALSE(kc::backend::isBackendName("metal"));
  CHECK_FALSE(kc::backend::isBackendName(""));
}

TEST_CASE("registries: perturbation kinds", "[registries][perturb]") {
  namespace p = kc::backend::perturb;
  CHECK(p::perturbationNames() == std::vector<std::string>{"none", "noise", "launch_order", "occupancy", "sub_batch"});
  CHECK(std::string(p::kPerturbationKinds.front()) == p::kNone);
  // A backend that does not perturb says so for every kind but none.
  auto exec = kc::backend::makeBackend(kc::backend::kExecBackend);
  CHECK(exec->setPerturbation(p::kNone).empty());
  for (const char* kind : p::kPerturbationKinds)
    if (std::string(kind) != p::kNone) CHECK(exec->setPerturbation(kind).rfind("not supported", 0) == 0);
}

TEST_CASE("registries: built-in signature names are distinct and not 'unclassified'", "[registries][signature]") {
  namespace s = kc::report::signature;
  std::set<std::string_view> seen(s::kBuiltIn.begin(), s::kBuiltIn.end());
  CHECK(seen.size() == s::kBuiltIn.size());
  CHECK_FALSE(s::isBuiltIn(s::kUnclassified));
  CHECK(s::isBuiltIn("batch-variant"));
  CHECK(s::isBuiltIn("precondition-unreported"));
  CHECK_FALSE(s::isBuiltIn("overflow"));  // a contract's own signature
}
