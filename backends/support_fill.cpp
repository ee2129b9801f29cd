#include "backends/support_fill.h"

#include <variant>

namespace kc::backend {

std::optional<kcs_gen> supportFill(const GeneratedFill& g) {
  if (g.spec.specialRate != 0.0) return std::nullopt;  // special values are placed by a rule over the whole tensor
  kcs_gen k{};
  k.dtype = static_cast<int32_t>(g.dtype);
  k.key0 = g.key[0];
  k.key1 = g.key[1];
  k.first = g.firstIndex;
  if (const auto* u = std::get_if<values::Uniform>(&g.spec.dist)) {
    k.kind = KCS_UNIFORM;
    k.lo = u->lo;
    k.hi = u->hi;
  } else if (const auto* i = std::get_if<values::IntUniform>(&g.spec.dist)) {
    k.kind = KCS_INT_UNIFORM;
    k.ilo = i->lo;
    k.ihi = i->hi;
  } else if (const auto* m = std::get_if<values::IndexMod>(&g.spec.dist)) {
    k.kind = KCS_INDEX_MOD;
    k.prime = m->prime;
    k.offset = m->offset;
  } else if (const auto* nd = std::get_if<values::Normal>(&g.spec.dist)) {
    k.kind = KCS_NORMAL;
    k.lo = nd->mean;
    k.hi = nd->stddev;
  } else if (const auto* cr = std::get_if<values::ConstantRows>(&g.spec.dist)) {
    k.kind = KCS_CONSTANT_ROWS;
    k.lo = cr->mean;
    k.hi = cr->stddev;
    k.cols = cr->cols;
  } else if (const auto* sr = std::get_if<values::ShiftedRows>(&g.spec.dist)) {
    k.kind = KCS_SHIFTED_ROWS;
    k.lo = sr->meanLo;
    k.hi = sr->meanHi;
    k.density = sr->stddev;
    k.cols = sr->cols;
  } else if (const auto* x = std::get_if<values::ExactInt>(&g.spec.dist)) {
    k.kind = KCS_EXACT_INT;
    k.ilo = -x->magnitude;
    k.ihi = x->magnitude;
    k.density = x->zeroDensity;
  } else {
    return std::nullopt;
  }
  return k;
}

}  // namespace kc::backend
