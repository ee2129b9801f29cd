#include "backends/ptx/ptx_lazy_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backends/streamed_ops.h"
#include "stdlib/numerics/dtype.h"
#include "stdlib/values/fill.h"

namespace kc::ptx {

namespace {

constexpr size_t kChunk = LazyMemory::kChunkBytes;

std::string gib(uint64_t bytes) {
  std::string s = std::to_string(static_cast<double>(bytes) / static_cast<double>(1ull << 30));
  return s.substr(0, s.find('.') + 2) + " GiB";
}

bool sameRule(const void* a, const void* b);

}  // namespace

LazyMemory::~LazyMemory() {
  for (auto& [base, r] : regions_) munmap(reinterpret_cast<void*>(base), r.chunks.size() * kChunk);
}

void* LazyMemory::reserve(size_t bytes) {
  size_t chunks = std::max<size_t>(1, (bytes + kChunk - 1) / kChunk);
  void* p = mmap(nullptr, chunks * kChunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error("the ptx backend cannot reserve " + gib(chunks * kChunk) + " of address space for a large buffer: " +
                             std::strerror(errno));
  static const ContentPtr zero = std::make_shared<Content>();
  Region r;
  r.base = reinterpret_cast<uint64_t>(p);
  r.bytes = bytes;
  r.chunks.assign(chunks, zero);
  regions_[r.base] = std::move(r);
  last_ = nullptr;
  return p;
}

bool LazyMemory::release(void* base) {
  auto it = regions_.find(reinterpret_cast<uint64_t>(base));
  if (it == regions_.end()) return false;
  for (const ContentPtr& c : it->second.chunks)
    if (!c) materialized_ -= kChunk;
  munmap(base, it->second.chunks.size() * kChunk);
  regions_.erase(it);
  last_ = nullptr;
  return true;
}

LazyMemory::Region* LazyMemory::regionAt(uint64_t address) {
  return const_cast<Region*>(static_cast<const LazyMemory*>(this)->regionAt(address));
}

const LazyMemory::Region* LazyMemory::regionAt(uint64_t address) const {
  if (last_ && address >= last_->base && address < last_->base + last_->chunks.size() * kChunk) return last_;
  auto it = regions_.upper_bound(address);
  if (it == regions_.begin()) return nullptr;
  --it;
  const Region& r = it->second;
  if (address >= r.base + r.chunks.size() * kChunk) return nullptr;
  const_cast<LazyMemory*>(this)->last_ = const_cast<Region*>(&r);
  return &r;
}

bool LazyMemory::overlaps(const void* p, size_t bytes) const {
  uint64_t a = reinterpret_cast<uint64_t>(p);
  if (regionAt(a)) return true;
  auto it = regions_.upper_bound(a);  // a region starting inside the range
  return it != regions_.end() && it->first < a + bytes;
}

void LazyMemory::produce(const Content& c, uint64_t address, uint8_t* out, size_t bytes) {
  switch (c.kind) {
    case Content::Kind::Zero:
      std::memset(out, 0, bytes);
      return;
    case Content::Kind::Pattern: {
      size_t len = c.pattern.size();
      size_t phase = static_cast<size_t>((address - c.origin) % len);
      for (size_t i = 0; i < bytes; ++i) {
        out[i] = c.pattern[phase];
        if (++phase == len) phase = 0;
      }
      return;
    }
    case Content::Kind::Generated: {
      size_t eb = c.elementBytes;
      uint64_t offset = address - c.origin;
      uint64_t element = offset / eb;
      size_t skip = static_cast<size_t>(offset % eb);
      uint8_t cell[8];
      for (size_t done = 0; done < bytes; ++element) {
        double v = values::cellValue(c.gen->spec, c.gen->dtype, c.gen->key, c.gen->firstIndex + element);
        backend::encodeElement(c.gen->dtype, v, cell);
        size_t n = std::min(eb - skip, bytes - done);
        std::memcpy(out + done, cell + skip, n);
        done += n;
        skip = 0;
      }
      return;
    }
  }
}

void LazyMemory::materialize(Region& r, size_t chunk) {
  ContentPtr c = r.chunks[chunk];
  if (!c) return;
  if (materialized_ + kChunk > limit_)
    throw std::runtime_error("the kernel touched more than " + gib(limit_) +
                             " of its large buffers, the most the ptx backend makes real for one case");
  uint64_t at = r.base + chunk * kChunk;
  if (mprotect(reinterpret_cast<void*>(at), kChunk, PROT_READ | PROT_WRITE) != 0)
    throw std::runtime_error(std::string("the ptx backend cannot map a chunk of a large buffer: ") + std::strerror(errno));
  if (c->kind != Content::Kind::Zero) produce(*c, at, reinterpret_cast<uint8_t*>(at), kChunk);
  r.chunks[chunk] = nullptr;
  materialized_ += kChunk;
}

void LazyMemory::setLazy(Region& r, size_t chunk, const ContentPtr& c) {
  if (!r.chunks[chunk]) {
    void* at = reinterpret_cast<void*>(r.base + chunk * kChunk);
    madvise(at, kChunk, MADV_DONTNEED);  // the pages go back; read again they are zeros
    mprotect(at, kChunk, PROT_NONE);
    materialized_ -= kChunk;
  }
  r.chunks[chunk] = c;
}

void LazyMemory::touch(uint64_t address, size_t bytes) {
  Region* r = regionAt(address);
  if (!r) return;
  uint64_t end = std::min<uint64_t>(address + std::max<size_t>(bytes, 1), r->base + r->chunks.size() * kChunk);
  for (size_t c = (address - r->base) / kChunk; c <= (end - 1 - r->base) / kChunk; ++c)
    if (r->chunks[c]) materialize(*r, c);
}

void LazyMemory::assign(uint64_t p, size_t bytes, const ContentPtr& rule) {
  for (uint64_t at = p, end = p + bytes; at < end;) {
    Region* r = regionAt(at);
    if (!r) {  // plain memory (or a gap): written directly, up to the next region
      auto it = regions_.upper_bound(at);
      uint64_t stop = it == regions_.end() ? end : std::min<uint64_t>(end, it->first);
      produce(*rule, at, reinterpret_cast<uint8_t*>(at), stop - at);
      at = stop;
      continue;
    }
    size_t c = (at - r->base) / kChunk;
    uint64_t c0 = r->base + c * kChunk, c1 = c0 + kChunk;
    uint64_t stop = std::min(end, c1);
    if (at == c0 && stop == c1) {
      setLazy(*r, c, rule);
    } else {
      materialize(*r, c);
      produce(*rule, at, reinterpret_cast<uint8_t*>(at), stop - at);
    }
    at = stop;
  }
}

void LazyMemory::fillPattern(void* p, const std::vector<uint8_t>& pattern, size_t bytes) {
  if (pattern.empty() || bytes == 0) return;
  auto c = std::make_shared<Content>();
  c->kind = Content::Kind::Pattern;
  c->pattern = pattern;
  c->origin = c->lo = reinterpret_cast<uint64_t>(p);
  c->hi = c->lo + bytes;
  assign(c->lo, bytes, c);
}

void LazyMemory::fillGenerated(void* p, const backend::GeneratedFill& g, size_t count) {
  if (count == 0) return;
  auto c = std::make_shared<Content>();
  c->kind = Content::Kind::Generated;
  c->gen = std::make_shared<backend::GeneratedFill>(g);
  c->elementBytes = static_cast<size_t>(numerics::sizeBytes(g.dtype));
  c->origin = c->lo = reinterpret_cast<uint64_t>(p);
  c->hi = c->lo + count * c->elementBytes;
  assign(c->lo, count * c->elementBytes, c);
}

const LazyMemory::Content* LazyMemory::uniform(uint64_t address, size_t bytes) const {
  const Region* r = regionAt(address);
  if (!r || bytes == 0) return nullptr;
  uint64_t end = address + bytes;
  if (end > r->base + r->chunks.size() * kChunk) return nullptr;
  const Content* rule = nullptr;
  for (size_t c = (address - r->base) / kChunk; c <= (end - 1 - r->base) / kChunk; ++c) {
    const Content* here = r->chunks[c].get();
    if (!here) return nullptr;
    if (rule && here != rule && !sameRule(rule, here)) return nullptr;
    rule = here;
  }
  if (address < rule->lo || end > rule->hi) return nullptr;
  return rule;
}

namespace {

bool sameRule(const void* pa, const void* pb) {
  // Two chunks of one fill share one rule object; a copy's chunks share its shifted rule. Any
  // other pair is compared through sameBytes by the callers that need it.
  return pa == pb;
}

}  // namespace

bool LazyMemory::sameBytes(const Content& a, uint64_t atA, const Content& b, uint64_t atB) {
  using K = Content::Kind;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::Zero: return true;
    case K::Pattern:
      return a.pattern == b.pattern && (atA - a.origin) % a.pattern.size() == (atB - b.origin) % b.pattern.size();
    case K::Generated:
      return a.gen == b.gen && a.elementBytes == b.elementBytes && atA - a.origin == atB - b.origin;
  }
  return false;
}

void LazyMemory::read(void* host, const void* from, size_t bytes) const {
  auto* out = static_cast<uint8_t*>(host);
  for (uint64_t at = reinterpret_cast<uint64_t>(from), end = at + bytes; at < end;) {
    const Region* r = regionAt(at);
    if (!r) {
      auto it = regions_.upper_bound(at);
      uint64_t stop = it == regions_.end() ? end : std::min<uint64_t>(end, it->first);
      std::memcpy(out, reinterpret_cast<const void*>(at), stop - at);
      out += stop - at;
      at = stop;
      continue;
    }
    size_t c = (at - r->base) / kChunk;
    uint64_t stop = std::min<uint64_t>(end, r->base + (c + 1) * kChunk);
    if (r->chunks[c])
      produce(*r->chunks[c], at, out, stop - at);
    else
      std::memcpy(out, reinterpret_cast<const void*>(at), stop - at);
    out += stop - at;
    at = stop;
  }
}

void LazyMemory::copy(void* to, const void* from, size_t bytes) {
  const uint64_t dst = reinterpret_cast<uint64_t>(to), src = reinterpret_cast<uint64_t>(from);
  const uint64_t delta = dst - src;  // modular: origin + delta moves a rule from src to dst
  std::map<const Content*, ContentPtr> shifted;
  std::vector<uint8_t> scratch;
  for (uint64_t at = dst, end = dst + bytes; at < end;) {
    Region* r = regionAt(at);
    uint64_t stop = end;
    if (r) {
      size_t c = (at - r->base) / kChunk;
      uint64_t c0 = r->base + c * kChunk, c1 = c0 + kChunk;
      stop = std::min(end, c1);
      const Content* rule = at == c0 && stop == c1 ? uniform(at - delta, kChunk) : nullptr;
      if (rule) {
        ContentPtr& s = shifted[rule];
        if (!s) {
          auto moved = std::make_shared<Content>(*rule);
          moved->origin += delta;
          moved->lo += delta;
          if (rule->hi != UINT64_MAX) moved->hi += delta;
          if (rule->kind == Content::Kind::Zero) moved->lo = 0, moved->hi = UINT64_MAX;
          s = moved;
        }
        setLazy(*r, c, s);
        at = stop;
        continue;
      }
      materialize(*r, c);
    } else {
      auto it = regions_.upper_bound(at);
      if (it != regions_.end()) stop = std::min<uint64_t>(end, it->first);
    }
    read(reinterpret_cast<void*>(at), reinterpret_cast<const void*>(at - delta), stop - at);
    at = stop;
  }
}

backend::PatternCount LazyMemory::countPattern(const void* p, size_t count, const std::vector<uint8_t>& pattern,
                                               size_t maxFirst) const {
  backend::PatternCount out;
  size_t eb = pattern.size();
  if (eb == 0) return out;
  const uint64_t base = reinterpret_cast<uint64_t>(p);
  const size_t block = std::max<size_t>(1, kChunk / eb);
  std::vector<uint8_t> bytes(block * eb);
  Content want;
  want.kind = Content::Kind::Pattern;
  want.pattern = pattern;
  for (size_t i = 0; i < count; i += block) {
    size_t n = std::min(block, count - i);
    uint64_t at = base + i * eb;
    const Content* rule = uniform(at, n * eb);
    want.origin = at;
    bool all = rule && (sameBytes(*rule, at, want, at) ||
                        (rule->kind == Content::Kind::Zero &&
                         std::all_of(pattern.begin(), pattern.end(), [](uint8_t b) { return b == 0; })));
    if (all) {
      out.count += n;
      for (size_t k = 0; k < n && out.first.size() < maxFirst; ++k) out.first.push_back(i + k);
      continue;
    }
    read(bytes.data(), reinterpret_cast<const void*>(at), n * eb);
    for (size_t k = 0; k < n; ++k)
      if (std::memcmp(bytes.data() + k * eb, pattern.data(), eb) == 0) {
        ++out.count;
        if (out.first.size() < maxFirst) out.first.push_back(i + k);
      }
  }
  return out;
}

uint64_t LazyMemory::compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) const {
  uint64_t differ = 0;
  size_t eb = std::max<size_t>(1, elementBytes);
  const size_t block = std::max<size_t>(1, kChunk / eb);
  std::vector<uint8_t> x(block * eb), y(block * eb);
  for (size_t i = 0; i < count; i += block) {
    size_t n = std::min(block, count - i);
    uint64_t atA = reinterpret_cast<uint64_t>(a) + i * eb, atB = reinterpret_cast<uint64_t>(b) + i * eb;
    const Content *ra = uniform(atA, n * eb), *rb = uniform(atB, n * eb);
    if (ra && rb && sameBytes(*ra, atA, *rb, atB)) continue;
    read(x.data(), reinterpret_cast<const void*>(atA), n * eb);
    read(y.data(), reinterpret_cast<const void*>(atB), n * eb);
    for (size_t k = 0; k < n; ++k) differ += std::memcmp(x.data() + k * eb, y.data() + k * eb, eb) != 0;
  }
  return differ;
}

}  // namespace kc::ptx
