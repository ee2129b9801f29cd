#include "backends/ptx/ptx_engine.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

namespace kc::ptx {

Engine::Engine(Module module) : module_(std::move(module)) {
  symbolAddress_.assign(module_.symbols.size(), 0);
  for (size_t i = 0; i < module_.symbols.size(); ++i) {
    const Symbol& s = module_.symbols[i];
    if (s.space != Space::Global && s.space != Space::Const) continue;
    size_t n = static_cast<size_t>(std::max<int64_t>(s.size, 1));
    auto storage = std::make_unique<uint8_t[]>(n);
    std::memset(storage.get(), 0, n);
    std::memcpy(storage.get(), s.init.data(), std::min(n, s.init.size()));
    symbolAddress_[i] = reinterpret_cast<uint64_t>(storage.get());
    memory_.add(storage.get(), static_cast<size_t>(s.size));
    globals_.push_back(std::move(storage));
  }
}

LaunchResult Engine::launch(const LaunchRequest& r) {
  LaunchResult out;
  const Function* fn = module_.find(r.kernel);
  if (!fn) {
    out.fault = "the PTX has no kernel '" + r.kernel + "'";
    return out;
  }
  LaunchState L;
  L.module = &module_;
  L.function = fn;
  L.grid = r.grid;
  L.block = r.block;
  L.memory = &memory_;
  L.symbolAddress = symbolAddress_;
  L.sharedBytes = static_cast<size_t>(fn->sharedBytes) + r.dynamicShared;
  L.instructionLimit = r.instructionLimit;
  L.checkRaces = r.checkRaces;
  L.params.assign(static_cast<size_t>(fn->paramBytes), 0);
  for (size_t k = 0; k < fn->params.size(); ++k) {
    const Symbol& p = module_.symbols[static_cast<size_t>(fn->params[k])];
    if (r.args && r.args[k]) std::memcpy(L.params.data() + p.offset, r.args[k], static_cast<size_t>(p.size));
  }
  const uint64_t ctas = r.grid.count();
  std::vector<uint64_t> order(ctas);
  std::iota(order.begin(), order.end(), 0);
  if (r.order % 2 == 1) {
    std::reverse(order.begin(), order.end());
  } else if (r.order != 0) {
    std::mt19937_64 rng(r.order);
    std::shuffle(order.begin(), order.end(), rng);
  }
  try {
    for (uint64_t linear : order) {
      Dim3 id{static_cast<uint32_t>(linear % r.grid.x), static_cast<uint32_t>(linear / r.grid.x % r.grid.y),
              static_cast<uint32_t>(linear / (uint64_t{r.grid.x} * r.grid.y))};
      Cta cta(L, id, static_cast<uint32_t>(linear));
      cta.run(r.order);
    }
  } catch (const Fault& f) {
    out.fault = f.what();
  }
  out.race = L.race;
  out.races = L.races;
  out.barrier = L.barrier;
  out.instructions = L.instructions;
  return out;
}

}  // namespace kc::ptx
