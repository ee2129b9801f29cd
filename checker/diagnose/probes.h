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

// The same case run twice: with its outputs read once the launch's stream is done, then once
// the whole device is (synchronizeDevice(), as a harness that calls torch.cuda.synchronize()
// does). Failing the first way and passing the second, the kernel leaves its work on a
// stream of its own that it does not order before it returns (stream-race). Asked only on a
// backend with streams (Backend::hasStreams).
bool racesItsStream(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// The inputs changed (another seed, each input's first distribution), nothing else: the
// outputs stayed bit for bit the same.
// The kernel's output does not depend on its inputs (never computed, or reused).
bool ignoresInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// A dim whose remainder decides the failure: the case passes with that dim alone rounded up
// to a multiple of the tile, and fails again one past it.
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
enum class Rounding { Needed, NotNeeded, Unknown };
Rounding needsRounding(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, std::vector<std::string>& log);

// The same case with every f32 input first rounded to a narrower format (TF32, then bf16):
// when the outputs stay bit for bit the same (90% of the written cells or more; a double
// rounding may move a few) and the run on the narrow inputs passes, the kernel only ever saw
// the narrow value: it rounds its operands. Returns the format, or nullopt; `moved` says
// whether rounding changed most cells of some input (integer inputs stay put: the case can
// show nothing, and another case may).
std::optional<numerics::DType> seesOnlyNarrowInputs(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks, bool& moved,
                                                    std::vector<std::string>& log);

// Every written wrong cell of the result is its exact value times one factor (not 0, not 1):
// a scale dropped or applied twice. The factor, or nullopt. From the worst cells, no re-run;
// the diagnosis names it only when the factor is a dim's size, its root or their inverses,
// or the same in every failing case.
std::optional<double> constantFactor(const report::CaseResult& r);

}  // namespace kc::diagnose
