#pragma once
// The diagnostic re-runs (docs/checking.md, "How a cause is chosen"): each changes one
// factor of a failing case and says what the change showed. They run only on failures, within
// the context's budget; each appends one line to `log` whatever it showed.
#include <optional>
#include <string>
#include <vector>

#include "checker/diagnose/variant_run.h"

namespace kc::diagnose {

// The bytes outside every view changed, nothing else: first the canaries and gaps (other
// marks), then, when that shows nothing (a NaN read gives NaN either way), the case with its
// float inputs in padded rows whose gaps hold their largest value in one run and their
// smallest in the other. The outputs changed too, while the same run repeated gives the
// same bytes: the kernel reads outside its views.
bool readsOutsideViews(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// The same case run twice on a busy device (the `noise` perturbation before the launch, so
// every SM is full): with its outputs read once the launch's stream is done, then once the
// whole device is (synchronizeDevice(), as a harness that calls torch.cuda.synchronize()
// does). Failing the first way and passing the second, the kernel leaves its work on a
// stream of its own that it does not order before it returns (stream-race). Asked only on a
// backend with streams (Backend::hasStreams).
bool racesItsStream(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// The inputs changed (another seed, each input's first distribution), nothing else: the
// outputs stayed bit for bit the same.
// The kernel's output does not depend on its inputs (never computed, or reused).
bool ignoresInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);
// Whether the kernel computes its outputs on `c`, a case that passed: re-run with other inputs
// (seed + 1, each input's first distribution) it passes again, and its outputs changed with
// them. A kernel that ignores its inputs on one case but does this on another is not one that
// never computes: it skips work at some shapes (a bound, a tail).
bool computesOn(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// A dim whose remainder decides the failure: the case passes with that dim alone rounded up
// to a multiple of the tile, and fails again one past it. Only extents are tried (a padding
// of 64 makes an output of zeros that passes), and only sizes that meet the preconditions.
struct TailFinding {
  std::string dim;
  int64_t tile = 0;
  bool inOutput = false;  // the dim is a dimension of some output (else it is reduced away)
  size_t axis = 0;        // then: its axis in the first output that has it
  std::string evidence;   // "fails with H=33 and H=65, passes with H=64 and H=48: ..."
};
std::optional<TailFinding> failsOnRemainder(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                            std::vector<std::string>& log);

// The same case with a dim past 65,535 (the most blocks a CUDA launch has in grid y or z)
// set to 65,535, then 65,536: when the first passes and the second fails, the kernel fails
// past that limit (a grid over the dim that is not strided). Returns the dim and the evidence.
struct LimitFinding {
  std::string dim;
  std::string evidence;  // "fails when R > 65535: R=65537 and R=65536 fail, R=65535 passes"
};
std::optional<LimitFinding> failsPastGridLimit(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                               std::vector<std::string>& log);

// The same case on inputs every dtype holds exactly and every order sums exactly (integers
// in -1..1, integer inputs unchanged): Passes means the failure needs values that round (a
// precision cause); Fails means it does not (a logic cause: dropped terms, a wrong index).
// Failing shows nothing when the oracle's sums round such inputs too (a division, a root).
// Where a sum of them can pass kExactSumReach, bf16's last exact integer (largestPartialSum),
// a failure counts only when the case with its dims halved until none can
// (withinExactReach) fails too.
enum class Rounding { Needed, NotNeeded, Unknown };
inline constexpr double kExactSumReach = 256;
double largestPartialSum(const sema::ContractInfo& ct, const plan::Case& c);
std::optional<plan::Case> withinExactReach(const sema::ContractInfo& ct, plan::Case c);
Rounding needsRounding(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// The same case with every f32 input first rounded to a narrower format (TF32, then bf16):
// when the outputs stay bit for bit the same (90% of the written cells or more; a double
// rounding may move a few) and the run on the narrow inputs passes, the kernel only ever saw
// the narrow value: it rounds its operands. Returns the format, or nullopt; `moved` says
// whether rounding changed most cells of some input (integer inputs stay put: the case can
// show nothing, and another case may).
std::optional<numerics::DType> seesOnlyNarrowInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, bool& moved,
                                                    std::vector<std::string>& log);

// layout_probes.cpp: a failing case with strided views that passes in contiguous ones, run
// in both with one cell of each float input changed (to another cell's value of the same
// input). When the change reaches at most half the output cells in contiguous views, and
// the output cells that move in the case's views are some and each moves in contiguous views
// too, the kernel reads the right cells of its views: the layout changes how it computes
// them, not what it reads (a layout's own numerics path; not ignores-strides). Returns that
// evidence, or nullopt (other cells move, none do, the change reaches most of the output, or
// a run did not run).
std::optional<std::string> readsItsOwnCells(ProbeContext& ctx, const plan::Case& strided, const plan::Case& contiguous, uint64_t seed,
                                            uint64_t marks, std::vector<std::string>& log);

// value_probes.cpp: hypotheses about the values a kernel computes. Each returns the
// evidence it showed, or nullopt.
//
// One float input multiplied by a dim's size or square root, or their inverses: the kernel's
// outputs then pass against the exact outputs of the unscaled inputs, and fail against those
// of the scaled ones (the scale matters). The kernel misses that factor (missing-scale:
// attention without 1/sqrt(D)).
// The factor found must also make the first of `others` (failing cases) that has another
// value of its dim pass; with none such, it is not named.
struct ScaleCheck {
  plan::Case kase;
  uint64_t seed = 0, marks = 0;
};
std::optional<std::string> passesWithInputScaled(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                 const std::vector<ScaleCheck>& others, std::vector<std::string>& log);
// A float input with fewer cells than the outputs (a per-row or per-column scale) doubled:
// the outputs stay bit for bit the same while the exact ones double. The kernel ignores a
// factor of its result (missing-scale).
std::optional<std::string> ignoresScaleInput(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                             std::vector<std::string>& log);
// Every float input 1, so that each exact output counts the terms it sums; then a dim
// doubled: the exact outputs grow and the kernel's barely do (by less than an eighth as
// much). It keeps only a bounded part of its sum: an accumulator overwritten
// (accumulate-overwrite), not terms dropped at a bound (which grow with the dim).
std::optional<std::string> keepsBoundedTerms(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                             std::vector<std::string>& log);
// A failure with Inf or NaN where the exact value is finite: every float input scaled by
// 1/4, then 1/16, then 1/256, each run judged against its own exact outputs. Passing, the
// kernel fails only on large values: an intermediate overflows (overflow).
std::optional<std::string> overflowsOnLargeValues(ProbeContext& ctx, const plan::Case& c, const report::CaseResult& failure, uint64_t seed,
                                                  uint64_t marks, std::vector<std::string>& log);
// For an oracle that calls a transcendental (exp, erf, tanh, ...) and a kernel whose inputs
// and outputs all have one shape: reversing every input's cells reverses the outputs bit
// for bit (each output a function of its own input cell alone), and the wrong cells are
// finite and within a few percent of their exact values. The kernel computes the function
// by an approximation (approximate-math).
std::optional<std::string> approximatesPointwise(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                 std::vector<std::string>& log);

// A failure whose wrong cells are off by more than half their exact value, in a kernel with
// integer inputs that are values (not indices): those inputs divided by 16, then by 256
// (rounded, but never to 0), each run judged against its own exact outputs. Passing, the kernel fails only
// on large integer sums: an integer intermediate wraps or saturates (overflow).
std::optional<std::string> wrapsOnLargeIntegers(ProbeContext& ctx, const plan::Case& c, const report::CaseResult& failure, uint64_t seed,
                                                uint64_t marks, std::vector<std::string>& log);

// reduction_probes.cpp: how a kernel walks a reduction, the axes found in the oracle's IR.
//
// For each input axis a ranged reduction of the oracle runs over (one whose bounds depend on
// the cell: sum(j in 0..i, ...)), the slice 1 along it, then the last, set past the view's
// range (above, then below): when some output cells' exact values stay bit for bit the same
// (a causal row 0 does not reach key 1) but the kernel's move by more than a thousandth of
// their size, the kernel reads past the limit of that reduction (tail-over-read: a mask not
// applied inside the diagonal block).
std::optional<std::string> readsPastReductionLimit(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                   std::vector<std::string>& log);
// For an oracle whose softmax subtracts a maximum m = max(j, x[.., j]) inside an exp: every
// row of the inputs made alike (copied from the last), and the keys (every input axis of
// j's dim a reduction runs over: k and v, not q) sorted by x, ascending then descending.
// Failing in ascending order and passing in descending order, what the kernel summed before
// its running maximum rose is not rescaled (online-softmax-rescale).
std::optional<std::string> missesRunningMaxRescale(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                   std::vector<std::string>& log);

// The case with `dim` alone set to three values (n, 4n, 16n; or n/16, n/4, n when n is
// large): the largest error in ulps rises with it (never falling by more than 2x, ending 4x
// above where it starts). What `error grows with D` claims, shown with nothing else changed.
std::optional<std::string> errorGrowsWith(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, const std::string& dim,
                                          std::vector<std::string>& log);

// crash_probes.cpp: a case that crashed, run again (it must crash again), then with every
// tensor in rows padded to a multiple of 64 bytes and no offset: running then, the kernel
// crashes on rows that do not start on an aligned address (misaligned-access: an aligned
// SSE load, a float4 on a view one element in).
std::optional<std::string> crashesOnUnalignedRows(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                  std::vector<std::string>& log);

// Every written wrong cell of the result is its exact value times one factor (not 0, not 1):
// a scale dropped or applied twice. The factor, or nullopt. From the worst cells, no re-run;
// the diagnosis names it only when the factor is a dim's size, its root or their inverses,
// or the same in every failing case.
std::optional<double> constantFactor(const report::CaseResult& r);

}  // namespace kc::diagnose
