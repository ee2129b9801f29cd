#pragma once
// Large buffers of the ptx backend on the streamed case path (docs/ptx.md, "Large cases"),
// made real only where something touches them. A large-index case has tensors of 2^31 and
// more elements (8-32 GiB); a kernel whose 32-bit index wraps writes none or a few of their
// cells, and interpreting it takes no time, but generating, poisoning and comparing every
// cell on the host would. So each chunk of such a buffer holds a description of its content —
// zeros, a repeated pattern (poison, a memset), the counter-based generated fill (an input),
// or a copy of one of those — until the interpreter, the runtime shim or the checker's copy-out
// reads or writes it; only then is it mapped and its bytes written. Fills, copies between
// buffers, the poison count and the bitwise comparison work on the descriptions where they
// can, so what they cost follows what the kernel touched, not the tensor's size.
//
// The address space is reserved with no access (PROT_NONE, MAP_NORESERVE): a path that
// reached a chunk without materialising it faults instead of reading zeros.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "backends/backend.h"
#include "backends/ptx/ptx_memory.h"

namespace kc::ptx {

class LazyMemory : public TouchHook {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 16;

  // `limitBytes`: the most memory materialising may take (a std::runtime_error past it).
  explicit LazyMemory(uint64_t limitBytes) : limit_(limitBytes) {}
  ~LazyMemory() override;
  LazyMemory(const LazyMemory&) = delete;
  LazyMemory& operator=(const LazyMemory&) = delete;

  // Reserves `bytes` of zeros. Throws std::runtime_error when the address space is not there.
  void* reserve(size_t bytes);
  // Unmaps a region reserve() returned; false (nothing done) for any other pointer.
  bool release(void* base);
  // Whether [p, p + bytes) touches a lazy region.
  bool overlaps(const void* p, size_t bytes) const;

  // Makes [p, p + bytes) real memory holding its content; a range outside every region is
  // left alone. Cheap when it already is (the interpreter calls it on every global access).
  void touch(uint64_t address, size_t bytes) override;

  // Content operations; `to`/`p` may be a lazy region or plain memory (then they act on it).
  void fillPattern(void* p, const std::vector<uint8_t>& pattern, size_t bytes);
  void fillGenerated(void* p, const backend::GeneratedFill& g, size_t count);
  void copy(void* to, const void* from, size_t bytes);
  void read(void* host, const void* from, size_t bytes) const;
  backend::PatternCount countPattern(const void* p, size_t count, const std::vector<uint8_t>& pattern,
                                     size_t maxFirst) const;
  uint64_t compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) const;

  uint64_t materializedBytes() const { return materialized_; }

 private:
  // What a chunk holds until it is materialised: bytes [lo, hi) of the address space follow
  // one rule, anchored at `origin` (the address of element `gen->firstIndex`, or of the
  // pattern's first byte).
  struct Content {
    enum class Kind { Zero, Pattern, Generated } kind = Kind::Zero;
    std::vector<uint8_t> pattern;
    std::shared_ptr<const backend::GeneratedFill> gen;
    size_t elementBytes = 1;
    uint64_t origin = 0, lo = 0, hi = UINT64_MAX;
  };
  using ContentPtr = std::shared_ptr<const Content>;
  struct Region {
    uint64_t base = 0;
    size_t bytes = 0;
    std::vector<ContentPtr> chunks;  // nullptr: materialised
  };

  Region* regionAt(uint64_t address);
  const Region* regionAt(uint64_t address) const;
  // The content rule of every byte of [address, address + bytes) when one lazy rule covers
  // them all, else nullptr.
  const Content* uniform(uint64_t address, size_t bytes) const;
  static void produce(const Content& c, uint64_t address, uint8_t* out, size_t bytes);
  static bool sameBytes(const Content& a, uint64_t atA, const Content& b, uint64_t atB);
  void materialize(Region& r, size_t chunk);
  void setLazy(Region& r, size_t chunk, const ContentPtr& c);
  // Applies `rule` to [p, p + bytes): whole chunks take it lazily, partial ones are
  // materialised and written.
  void assign(uint64_t p, size_t bytes, const ContentPtr& rule);

  std::map<uint64_t, Region> regions_;  // base -> region
  Region* last_ = nullptr;
  uint64_t materialized_ = 0, limit_ = 0;
};

}  // namespace kc::ptx
