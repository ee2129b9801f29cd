#pragma once
// The lowering's first pass (lower.h): a reduction that depends on a strict subset of its
// definition's indices (and on no variable bound around it) is replaced by a read of a tensor
// of its own over those indices, computed before the definition: the f64 interpreter's
// reduction cache (prepare.cpp), made explicit, so that softmax's row sum inside y*[r, h] is
// computed once per row on the device, not once per cell.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checker/device_oracle/lower.h"
#include "compiler/ir/ir.h"

namespace kc::device_oracle {

// The index variables `n` reads that are not bound inside it (nor in `bound`).
void freeVars(const ir::Node& n, std::vector<std::string>& bound, std::set<std::string>& out);

struct Hoister {
  std::vector<Computed>& out;          // the computed tensors, a hoisted one appended before its user
  std::vector<ir::NodePtr>& values;    // parallel to out
  std::map<std::string, size_t> seen;  // a hoisted reduction's text and indices -> its tensor
  int next = 0;

  // Hoists the reductions of `n`, a value over `indices` (their extents beside them);
  // `binders`: the variables bound around `n` (none at a definition's root).
  void walk(ir::NodePtr& n, const std::vector<std::string>& indices, const std::vector<const ir::Node*>& extents,
            std::vector<std::string>& binders);

 private:
  void hoist(ir::NodePtr& n, const std::vector<std::string>& indices, const std::vector<const ir::Node*>& extents,
             const std::set<std::string>& fv);
};

}  // namespace kc::device_oracle
