#pragma once
// The f64 walker's reduction cache, kept in the env after the variable slots (see PNode::cache):
// a valid flag, the key slots' values, then the value (an int64_t, or a double's bits).
#include <cstdint>

#include "checker/oracle/evaluator.h"

namespace kc::oracle::detail {

// The cached value's cell when the key slots hold the values it was computed for.
inline int64_t* cacheHit(const PNode& n, int64_t* env) {
  int64_t* c = env + n.cache;
  if (c[0] == 0) return nullptr;
  for (size_t k = 0; k < n.keys.size(); ++k)
    if (c[1 + k] != env[n.keys[k]]) return nullptr;
  return c + 1 + n.keys.size();
}

// Records the key slots' values; returns the cell the value goes to.
inline int64_t* cacheStore(const PNode& n, int64_t* env) {
  int64_t* c = env + n.cache;
  c[0] = 1;
  for (size_t k = 0; k < n.keys.size(); ++k) c[1 + k] = env[n.keys[k]];
  return c + 1 + n.keys.size();
}

}  // namespace kc::oracle::detail
