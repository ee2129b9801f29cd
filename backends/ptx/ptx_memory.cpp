#include "backends/ptx/ptx_memory.h"

namespace kc::ptx {

void Allocations::add(const void* base, size_t bytes) {
  ranges_[reinterpret_cast<uint64_t>(base)] = bytes;
  lastBase_ = lastEnd_ = 0;
}

void Allocations::remove(const void* base) {
  ranges_.erase(reinterpret_cast<uint64_t>(base));
  lastBase_ = lastEnd_ = 0;
}

bool Allocations::contains(uint64_t address, size_t bytes) const {
  if (address >= lastBase_ && address + bytes <= lastEnd_ && lastEnd_ != 0) return true;
  auto it = ranges_.upper_bound(address);
  if (it == ranges_.begin()) return false;
  --it;
  uint64_t end = it->first + it->second;
  if (address + bytes > end || address + bytes < address) return false;
  lastBase_ = it->first;
  lastEnd_ = end;
  return true;
}

namespace {

// Whether two accesses of different threads are unordered: in different CTAs, or in one
// CTA with no barrier between them (the same epoch).
bool concurrent(const Access& x, const Access& y) {
  return x.thread != y.thread && (x.cta != y.cta || x.epoch == y.epoch);
}

}  // namespace

RaceShadow::Cell& RaceShadow::cell(uint64_t address) {
  if (2 * (used_ + 1) > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 4096 : old.size() * 2, Slot{});
    used_ = 0;
    for (const Slot& s : old)
      if (s.key) cell(s.key - 1) = s.cell;
  }
  const uint64_t key = address + 1, mask = slots_.size() - 1;
  for (uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.key == key) return s.cell;
    if (s.key == 0) {
      s.key = key;
      ++used_;
      return s.cell;
    }
  }
}

bool RaceShadow::read(uint64_t address, const Access& a, Race& race) {
  Cell& c = cell(address);
  bool found = false;
  if (c.written && concurrent(c.writer, a)) {
    race = {c.writer, true};
    found = true;
  }
  if (c.readers == 0 || c.reader.thread == a.thread || !concurrent(c.reader, a)) {
    if (c.readers == 2 && !(c.reader.cta == a.cta && c.reader.epoch != a.epoch && !c.manyCtas)) {
      c.manyCtas = c.manyCtas || c.reader.cta != a.cta;  // still several concurrent readers
    } else {
      c.readers = 1;
      c.manyCtas = false;
    }
  } else {
    c.readers = 2;
    c.manyCtas = c.manyCtas || c.reader.cta != a.cta;
  }
  c.reader = a;
  return found;
}

bool RaceShadow::write(uint64_t address, const Access& a, Race& race) {
  Cell& c = cell(address);
  bool found = false;
  if (c.written && concurrent(c.writer, a)) {
    race = {c.writer, true};
    found = true;
  } else if (c.readers == 1 && concurrent(c.reader, a)) {
    race = {c.reader, false};
    found = true;
  } else if (c.readers == 2 && (c.manyCtas || c.reader.cta != a.cta || c.reader.epoch == a.epoch)) {
    race = {c.reader, false};  // several readers, at least one of them another thread
    found = true;
  }
  c.writer = a;
  c.written = true;
  c.readers = 0;
  c.manyCtas = false;
  return found;
}

}  // namespace kc::ptx
