#include "compiler/sema/model.h"

namespace kc::sema {

const TensorInfo* KernelInfo::tensor(const std::string& n) const {
  for (const auto& t : tensors)
    if (t.name == n) return &t;
  return nullptr;
}

const DimInfo* KernelInfo::dim(const std::string& n) const {
  for (const auto& d : dims)
    if (d.name == n) return &d;
  return nullptr;
}

const DTypeVarInfo* KernelInfo::dtypeVar(const std::string& n) const {
  for (const auto& v : dtypeVars)
    if (v.name == n) return &v;
  return nullptr;
}

const KernelInfo* Program::kernel(const std::string& name) const {
  for (const auto& k : kernels)
    if (k->name == name) return k.get();
  return nullptr;
}

const ContractInfo* Program::contract(const std::string& id) const {
  for (const auto& c : contracts)
    if (c->id == id) return c.get();
  return nullptr;
}

}  // namespace kc::sema
