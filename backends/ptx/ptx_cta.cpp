// The lockstep CTA interpreter (ptx_cta.h), its scheduling half: warps, the program counters
// of their threads, barriers, and the warp-wide instructions (shfl, vote, bar.warp.sync,
// activemask). What one thread executes on its own is ptx_thread.cpp's; the arithmetic itself
// ptx_alu.cpp's.
#include "backends/ptx/ptx_cta.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "backends/ptx/ptx_alu.h"
#include "backends/ptx/ptx_shfl.h"

namespace kc::ptx {

namespace {

constexpr uint32_t kWarp = 32;

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

Cta::Cta(LaunchState& launch, Dim3 ctaid, uint32_t ctaLinear)
    : L_(launch), fn_(*launch.function), ctaid_(ctaid), ctaLinear_(ctaLinear),
      threads_(static_cast<uint32_t>(launch.block.count())), nregs_(static_cast<size_t>(std::max(1, fn_.registers))) {
  regs_.assign(threads_ * nregs_, 0);
  pc_.assign(threads_, 0);
  state_.assign(threads_, Running);
  shared_.assign(std::max<size_t>(1, L_.sharedBytes), 0);
  local_.assign(std::max<size_t>(1, static_cast<size_t>(fn_.localBytes) * threads_), 0);
}

std::string Cta::where(const Instr& in) const { return in.text + " (line " + std::to_string(in.line) + " of " + fn_.name + ")"; }

std::string Cta::threadName(uint32_t g) const {
  uint32_t cta = g / threads_, t = g % threads_;
  uint32_t bx = L_.block.x, by = L_.block.y, gx = L_.grid.x, gy = L_.grid.y;
  char b[128];
  std::snprintf(b, sizeof b, "thread (%u,%u,%u) of block (%u,%u,%u)", t % bx, t / bx % by, t / (bx * by), cta % gx,
                cta / gx % gy, cta / (gx * gy));
  return b;
}

void Cta::warpOp(const Instr& in, const std::vector<uint32_t>& group) {
  // group: the threads of one warp at `pc` whose guard holds. Their member mask must name
  // exactly lanes that are here (lanes past the end of a partial warp do not count).
  const uint32_t warpBase = group.front() / kWarp * kWarp;
  const uint32_t lanesHere = std::min(kWarp, threads_ - warpBase);
  uint32_t present = 0;
  for (uint32_t t : group) present |= 1u << (t - warpBase);
  auto checkMask = [&](uint32_t mask) {
    uint32_t existing = lanesHere == 32 ? 0xffffffffu : ((1u << lanesHere) - 1);
    uint32_t needed = mask & existing;
    if ((needed & present) != needed) {
      uint32_t missing = needed & ~present;
      int lane = __builtin_ctz(missing);
      std::string why = state_[warpBase + static_cast<uint32_t>(lane)] == Exited ? "had exited" : "was elsewhere in the code";
      if (L_.barrier.empty())
        L_.barrier = "warp synchronisation: " + where(in) + " in block (" + std::to_string(ctaid_.x) + "," +
                     std::to_string(ctaid_.y) + "," + std::to_string(ctaid_.z) + ") warp " + std::to_string(warpBase / kWarp) +
                     " names lane " + std::to_string(lane) + " in its member mask " + hex(mask) + ", but that lane " + why;
    }
  };
  if (in.op == Op::BarWarp) {
    checkMask(static_cast<uint32_t>(value(in.ops[0], group.front(), Type::B32)));
    return;
  }
  if (in.op == Op::Activemask) {
    for (uint32_t t : group) reg(t, in.ops[0].reg) = present;
    return;
  }
  if (in.op == Op::Vote) {  // vote.sync.{any,all,ballot} d, {!}p, mask
    uint32_t mask = static_cast<uint32_t>(value(in.ops[2], group.front(), Type::B32));
    checkMask(mask);
    uint32_t ballot = 0;
    for (uint32_t t : group)
      if ((mask >> (t - warpBase) & 1) && (value(in.ops[1], t, Type::Pred) & 1)) ballot |= 1u << (t - warpBase);
    uint32_t members = mask & present;
    for (uint32_t t : group) {
      uint64_t r = in.atom == AtomOp::Add ? ballot : in.atom == AtomOp::Or ? (ballot != 0) : (ballot == members);
      reg(t, in.ops[0].reg) = r;
    }
    return;
  }
  // shfl.sync.MODE.b32 d(|p), a, b, c, mask: every source read before any write.
  const std::vector<Operand>& o = in.ops;
  bool hasPred = o[0].imm == 1 && o.size() == 6;
  size_t a = hasPred ? 2 : 1;
  uint32_t mask = static_cast<uint32_t>(value(o[a + 3], group.front(), Type::B32));
  checkMask(mask);
  std::vector<uint64_t> src(kWarp, 0);
  for (uint32_t t : group) src[t - warpBase] = value(o[a], t, Type::B32);
  std::vector<std::pair<uint64_t, bool>> out;
  out.reserve(group.size());
  for (uint32_t t : group) {
    uint32_t lane = t - warpBase;
    ShflSource s = shflSource(in.shfl, lane, static_cast<uint32_t>(value(o[a + 1], t, Type::B32)),
                              static_cast<uint32_t>(value(o[a + 2], t, Type::B32)));
    const uint32_t j = s.lane;
    const bool ok = s.inRange;
    // A source lane that is not taking part: the hardware's value is unspecified; its register's.
    uint64_t v = (present >> j & 1) ? src[j] : (warpBase + j < threads_ ? value(o[a], warpBase + j, Type::B32) : 0);
    out.push_back({v, ok});
  }
  for (size_t k = 0; k < group.size(); ++k) {
    setReg(o[0], group[k], out[k].first);
    if (hasPred) setReg(o[1], group[k], out[k].second);
  }
}

void Cta::step(uint32_t warp, uint32_t pc, const std::vector<uint32_t>& group) {
  (void)warp;
  const Instr& in = fn_.code[pc];
  L_.instructions += group.size();
  if (L_.instructionLimit && L_.instructions > L_.instructionLimit)
    throw Fault("the launch ran past its limit of " + std::to_string(L_.instructionLimit) + " instructions");
  // The guard splits the group: those whose predicate fails just move on.
  static thread_local std::vector<uint32_t> on;
  on.clear();
  for (uint32_t t : group) {
    if (in.guard >= 0 && (((reg(t, in.guard) & 1) != 0) == in.guardNegated)) {
      pc_[t] = pc + 1;
      continue;
    }
    on.push_back(t);
  }
  if (on.empty()) return;
  switch (in.op) {
    case Op::Bra:
      for (uint32_t t : on) pc_[t] = static_cast<uint32_t>(in.ops[0].imm);
      return;
    case Op::Ret:
    case Op::Exit:
      for (uint32_t t : on) state_[t] = Exited;
      return;
    case Op::Bar:
      if (in.ops.size() > 1) {
        uint64_t n = value(in.ops[1], on.front(), Type::U32);
        if (n != (threads_ + kWarp - 1) / kWarp * kWarp && n != threads_)
          throw Fault("bar.sync with a thread count (" + std::to_string(n) + ") is outside the subset: " + where(in));
      }
      for (uint32_t t : on) {
        state_[t] = AtBarrier;
        pc_[t] = pc + 1;
      }
      return;
    case Op::Shfl:
    case Op::Vote:
    case Op::BarWarp:
    case Op::Activemask:
      warpOp(in, on);
      for (uint32_t t : on) pc_[t] = pc + 1;
      return;
    case Op::Atom:
    case Op::Red:
      // The order in which a warp's atomics to one address land is the hardware's to pick:
      // it changes with the launch, as the order of the warps and CTAs does.
      if (order_ % 2 == 1) std::reverse(on.begin(), on.end());
      else if (order_ != 0) std::rotate(on.begin(), on.begin() + static_cast<long>(order_ % on.size()), on.end());
      [[fallthrough]];
    default:
      try {
        for (uint32_t t : on) {
          execute(in, t);
          pc_[t] = pc + 1;
        }
      } catch (const AluError& e) {
        throw Fault(std::string(e.what()) + ": " + where(in));
      }
  }
}

void Cta::runWarp(uint32_t warp) {
  const uint32_t first = warp * kWarp, last = std::min(threads_, first + kWarp);
  const uint32_t end = static_cast<uint32_t>(fn_.code.size());
  std::vector<uint32_t> group;
  group.reserve(kWarp);
  for (;;) {
    uint32_t pc = UINT32_MAX;
    for (uint32_t t = first; t < last; ++t)
      if (state_[t] == Running) pc = std::min(pc, pc_[t]);
    if (pc == UINT32_MAX) return;
    group.clear();
    for (uint32_t t = first; t < last; ++t)
      if (state_[t] == Running && pc_[t] == pc) group.push_back(t);
    if (pc >= end) {  // ran off the end: an implicit ret
      for (uint32_t t : group) state_[t] = Exited;
      continue;
    }
    step(warp, pc, group);
  }
}

// bar.sync is .aligned: every thread of a warp must execute the same barrier instruction.
// A warp whose threads wait at two barriers, or of which some wait while others have exited,
// is a finding; whole warps that exited before the barrier are legal (since Volta the
// barrier counts only the warps that are left, and the H200's synccheck is silent on it).
void Cta::openBarrier() {
  if (L_.barrier.empty()) {
    std::string block = "block (" + std::to_string(ctaid_.x) + "," + std::to_string(ctaid_.y) + "," + std::to_string(ctaid_.z) + ")";
    for (uint32_t first = 0; first < threads_ && L_.barrier.empty(); first += kWarp) {
      const uint32_t last = std::min(threads_, first + kWarp);
      uint32_t waiting = 0, exited = 0, pc = UINT32_MAX, otherPc = UINT32_MAX;
      for (uint32_t t = first; t < last; ++t) {
        if (state_[t] == Exited) {
          ++exited;
          continue;
        }
        ++waiting;
        if (pc == UINT32_MAX) pc = pc_[t];
        else if (pc_[t] != pc) otherPc = pc_[t];
      }
      if (waiting == 0) continue;
      const Instr& bar = fn_.code[pc - 1];
      std::string warp = "warp " + std::to_string(first / kWarp) + " of " + block;
      if (exited > 0)
        L_.barrier = "barrier divergence: " + where(bar) + " was reached by " + std::to_string(waiting) + " of the " +
                     std::to_string(last - first) + " threads of " + warp + "; the other " + std::to_string(exited) +
                     " had exited without reaching it";
      else if (otherPc != UINT32_MAX)
        L_.barrier = "barrier divergence: the threads of " + warp + " wait at two different barriers, " + where(bar) +
                     " and line " + std::to_string(fn_.code[otherPc - 1].line);
    }
  }
  for (uint32_t t = 0; t < threads_; ++t)
    if (state_[t] == AtBarrier) state_[t] = Running;
  ++epoch_;
}

void Cta::run(uint64_t warpOrder) {
  order_ = warpOrder;
  const uint32_t warps = (threads_ + kWarp - 1) / kWarp;
  std::vector<uint32_t> order(warps);
  for (uint32_t w = 0; w < warps; ++w) order[w] = w;
  if (warpOrder % 2 == 1) std::reverse(order.begin(), order.end());
  for (;;) {
    for (uint32_t w : order) runWarp(w);
    bool anyWaiting = false;
    for (uint32_t t = 0; t < threads_ && !anyWaiting; ++t) anyWaiting = state_[t] == AtBarrier;
    if (!anyWaiting) return;
    openBarrier();
  }
}

}  // namespace kc::ptx
