#pragma once
// Memory the interpreted kernels see (docs/ptx.md, "Memory"): global memory is host memory,
// and every access must fall inside one allocation the engine knows (the backend's buffers,
// the kernel's own cudaMalloc, the module's .global variables), or it is a fault naming the
// instruction. RaceShadow records, per address, the last write and the reads since it, and
// finds two accesses of different threads that nothing orders: in one CTA, no bar.sync between
// them; in two CTAs, nothing at all (atomics are never racy with each other).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kc::ptx {

// Memory made real only where it is touched (the ptx backend's large buffers on the streamed
// case path, backends/ptx/ptx_lazy_memory.h): every global access the interpreter makes is
// announced first.
class TouchHook {
 public:
  virtual ~TouchHook() = default;
  virtual void touch(uint64_t address, size_t bytes) = 0;
};

class Allocations {
 public:
  void setTouchHook(TouchHook* hook) { touch_ = hook; }
  TouchHook* touchHook() const { return touch_; }
  void add(const void* base, size_t bytes);
  void remove(const void* base);
  bool known(const void* base) const { return ranges_.count(reinterpret_cast<uint64_t>(base)) != 0; }
  // Whether [address, address + bytes) lies inside one allocation.
  bool contains(uint64_t address, size_t bytes) const;
  void clear() { ranges_.clear(); }

 private:
  std::map<uint64_t, uint64_t> ranges_;  // base -> size
  TouchHook* touch_ = nullptr;
  mutable uint64_t lastBase_ = 0, lastEnd_ = 0;
};

// One memory access, for the race check: who (thread id within the grid, its CTA), when (the
// CTA's barrier epoch) and where in the code (instruction index).
struct Access {
  uint32_t thread = 0;
  uint32_t cta = 0;
  uint32_t epoch = 0;
  uint32_t pc = 0;
};

struct Race {
  Access earlier;
  bool earlierWrite = false;
};

class RaceShadow {
 public:
  void clear() {
    slots_.clear();
    used_ = 0;
  }
  // Records the access to `address`; true (and `race`) when it races an earlier one.
  bool read(uint64_t address, const Access& a, Race& race);
  bool write(uint64_t address, const Access& a, Race& race);

 private:
  struct Cell {
    Access writer, reader;
    bool written = false;
    uint8_t readers = 0;  // 0, 1, or 2: more than one thread read since the write, concurrently
    bool manyCtas = false;
  };
  struct Slot {
    uint64_t key = 0;  // address + 1; 0: empty
    Cell cell;
  };
  Cell& cell(uint64_t address);  // open addressing, linear probing, grown at half full
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

}  // namespace kc::ptx
