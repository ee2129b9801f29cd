#pragma once
// An owned mpfr_t: the value of the MPFR domain, and the scratch of the interval arithmetic.
// Copies keep the precision (so a copy is exact); a move steals the limbs.
#include <mpfr.h>

#include <cstring>
#include <utility>

namespace kc::oracle::detail {

class Mp {
 public:
  explicit Mp(mpfr_prec_t p = 53) { mpfr_init2(v, p); }
  Mp(const Mp& o) {
    mpfr_init2(v, mpfr_get_prec(o.v));
    mpfr_set(v, o.v, MPFR_RNDN);
  }
  Mp(Mp&& o) noexcept {
    std::memcpy(v, o.v, sizeof v);
    o.v->_mpfr_d = nullptr;  // moved from: owns nothing
  }
  Mp& operator=(const Mp&) = delete;
  Mp& operator=(Mp&& o) noexcept {
    std::swap(v[0], o.v[0]);
    return *this;
  }
  ~Mp() {
    if (v->_mpfr_d) mpfr_clear(v);
  }

  mpfr_t v;
};

}  // namespace kc::oracle::detail
