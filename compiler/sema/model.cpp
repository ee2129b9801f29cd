#include "compiler/sema/model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kc::sema {

std::string shortestReal(double d) {
  char buf[64];
  // A whole number prints whole: %.1g would write 10 as "1e+01".
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return buf;
  }
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

std::string ProtocolValue::str() const {
  const ProtocolValue& v = *this;
  switch (v.kind) {
    case ProtocolValue::Kind::Int: return std::to_string(v.i) + (v.percent ? "%" : "");
    case ProtocolValue::Kind::Real: return shortestReal(v.d) + (v.percent ? "%" : "");
    case ProtocolValue::Kind::Range: return std::to_string(v.i) + ".." + std::to_string(v.hi);
    case ProtocolValue::Kind::Name: return v.name;
    case ProtocolValue::Kind::String: return "\"" + v.name + "\"";
    case ProtocolValue::Kind::Expr: return ir::print(*v.expr);
    case ProtocolValue::Kind::Call: {
      std::string s = v.name + "(";
      for (size_t a = 0; a < v.args.size(); ++a) {
        s += (a ? ", " : "") + (v.args[a].first.empty() ? "" : v.args[a].first + ": ");
        for (size_t k = 0; k < v.args[a].second.size(); ++k) s += (k ? ", " : "") + v.args[a].second[k].str();
      }
      return s + ")";
    }
  }
  return "?";
}

bool DimInfo::admits(int64_t v) const {
  if (v < lo || v > hi) return false;
  return allowed.empty() || std::binary_search(allowed.begin(), allowed.end(), v);
}

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
