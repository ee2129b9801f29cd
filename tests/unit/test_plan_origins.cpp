// Which class a case is for (plan::Case::origins): alternatives of two classes never share a
// case, every case names its classes, and the sub_batch perturbation of
// std.ord.batch-invariance@1 lands on batches it can cut (compiler/plan/batch.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "compiler/plan/batch.h"
#include "compiler/plan/planner.h"

namespace {

std::vector<kc::plan::Plan> planOp(const std::string& op, kc::Compilation& c) {
  kc::compile(c, {std::string(KC_SOURCE_DIR) + "/stdlib/ops/" + op + ".kcontract"}, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  return kc::plan::planProgram(*c.program, c.fileIds, {});
}

// The classes owning the alternatives the case carries (plan::alternativeOwners).
std::vector<std::string> ownersOf(const kc::plan::Plan& p, const kc::plan::Case& c) {
  std::vector<std::string> out;
  auto add = [&](const std::vector<std::string>& os) {
    for (const auto& o : os)
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
  };
  for (const auto& [n, a] : c.values) add(kc::plan::alternativeOwners(p, p.tensor(n)->values[a].origins, false));
  for (const auto& [n, a] : c.layouts) {
    const auto& l = p.tensor(n)->layouts[a];
    add(kc::plan::alternativeOwners(p, l.origins, l.kind == "contiguous"));
  }
  for (const auto& x : p.perturb)
    if (x.text == c.perturb) add(kc::plan::alternativeOwners(p, x.origins, x.text == "none"));
  return out;
}

}  // namespace

TEST_CASE("plan origins: no case carries the alternatives of two classes", "[plan][origins]") {
  for (const char* op : {"matmul", "softmax", "relu", "sum", "layernorm"}) {
    kc::Compilation c;
    auto plans = planOp(op, c);
    // The file's contracts: the standard one, and where it changed its older versions kept
    // beside it (std.op.softmax@4, then @3, @2 and @1).
    REQUIRE((plans.size() >= 1 && plans.size() <= 4));
    for (const auto& p : plans) {
      INFO(op);
      CHECK(std::find(p.everywhere.begin(), p.everywhere.end(), "std.ord.determinism@1") != p.everywhere.end());
      std::set<std::string> seen;
      for (const auto& k : p.cases) {
        INFO(k.id);
        std::vector<std::string> owners = ownersOf(p, k);
        // One owning class at most (an alternative several classes asked for counts once).
        bool oneClass = owners.size() <= 1;
        if (!oneClass) {
          for (const auto& [n, a] : k.values) oneClass = oneClass || p.tensor(n)->values[a].origins.size() > 1;
        }
        CHECK(oneClass);
        REQUIRE_FALSE(k.origins.empty());
        for (const auto& o : owners) CHECK(std::find(k.origins.begin(), k.origins.end(), o) != k.origins.end());
        seen.insert(owners.begin(), owners.end());
      }
      // Every class with alternatives of its own still gets cases.
      CHECK(seen.count("std.mem.strides@1") == 1);
    }
  }
}

TEST_CASE("plan origins: sub_batch cases cut batches of two rows or more", "[plan][origins][batch]") {
  kc::Compilation c;
  auto plans = planOp("sum", c);
  // std.op.sum@3 and @2 leave batch invariance to an opt-in; @1, kept beside them, applies it.
  REQUIRE(plans.size() == 3);
  CHECK(plans[0].contract == "std.op.sum@3");
  CHECK(plans[1].contract == "std.op.sum@2");
  for (int i : {0, 1})
    for (const auto& k : plans[i].cases) CHECK(k.perturb != "sub_batch");
  const auto& p = plans[2];
  REQUIRE(p.contract == "std.op.sum@1");
  std::set<int64_t> batches;
  for (const auto& k : p.cases) {
    if (k.perturb != "sub_batch") continue;
    for (const auto& [n, v] : k.dims)
      if (n == "R") batches.insert(v);
    CHECK(k.origins == std::vector<std::string>{"std.ord.batch-invariance@1"});
  }
  CHECK(batches == std::set<int64_t>{3, 64});  // every candidate of R above 1
}

TEST_CASE("batch: the batch dimension leads every tensor that uses it", "[plan][batch]") {
  auto kernelOf = [](const std::string& text) {
    auto comp = std::make_unique<kc::Compilation>();
    kc::compileText(*comp, "t.kcontract", "kcontract 1\n" + text, kc::Stage::Sema);
    REQUIRE_FALSE(comp->diags.hasErrors());
    REQUIRE(comp->program->kernels.size() == 1);
    return comp;
  };
  auto rows = kernelOf("kernel k(x: f32[R, H], eps: f32) -> (y: f32[R])\n");
  CHECK(kc::plan::batchDim(*rows->program->kernels[0]) == std::optional<std::string>("R"));
  auto gemm = kernelOf("kernel k(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N])\n");
  CHECK(kc::plan::batchDim(*gemm->program->kernels[0]) == std::optional<std::string>("M"));
  auto mixed = kernelOf("kernel k(x: f32[H, R]) -> (y: f32[R, H])\n");
  CHECK_FALSE(kc::plan::batchDim(*mixed->program->kernels[0]));
  auto flat = kernelOf("kernel k(x: f32[R * H]) -> (y: f32[R])\n");
  CHECK_FALSE(kc::plan::batchDim(*flat->program->kernels[0]));

  CHECK(kc::plan::subBatchSizes(1).empty());
  CHECK(kc::plan::subBatchSizes(2) == std::vector<int64_t>{1});
  CHECK(kc::plan::subBatchSizes(5) == std::vector<int64_t>{1, 3});
  CHECK(kc::plan::subBatchSizes(64) == std::vector<int64_t>{1, 32});
}
